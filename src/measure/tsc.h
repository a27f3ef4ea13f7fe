/* Converting nanoseconds to cycles of the CPU's constant-rate counter (the TSC on
 * x86-64). That is a reference clock, not the core clock, which turbo and power
 * management change; reports label it so. Unknown elsewhere: callers print ns only. */
#ifndef MEMBENCH_TSC_H
#define MEMBENCH_TSC_H

/* Counter frequency in Hz, measured against CLOCK_MONOTONIC over ~20 ms when the
 * CPU says the counter is invariant; 0 when not known. Measured once, cached. */
double tsc_frequency_hz(void);

#endif
