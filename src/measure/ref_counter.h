/* SPDX-License-Identifier: MIT */
/* Converting nanoseconds to ticks of the CPU's constant-rate reference counter (the
 * TSC on x86-64, CNTVCT_EL0 on arm64, the timebase on POWER, ...; platform/arch.h).
 * That is a reference clock, not the core clock, which turbo and power management
 * change; reports label it so. */
#ifndef MEMBENCH_REF_COUNTER_H
#define MEMBENCH_REF_COUNTER_H

/* Counter rate in Hz, measured against CLOCK_MONOTONIC over ~20 ms, when the
 * counter ticks at a constant rate of at least 500 MHz (slower counters, such as
 * arm64's usual 25-100 MHz, would give latencies of a fraction of a tick); 0
 * otherwise. Measured once, cached. */
double ref_counter_hz(void);

/* The counter's name ("TSC", "CNTVCT_EL0", ...) or NULL. */
const char *ref_counter_name(void);

/* The measured rate whatever it is (0 when there is no constant-rate counter);
 * ref_counter_hz applies the 500 MHz floor to this. For tests and -v. */
double ref_counter_measured_hz(void);

#endif
