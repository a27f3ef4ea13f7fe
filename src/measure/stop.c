#include "measure/stop.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "measure/clock.h"

atomic_int stop_flag;
static volatile sig_atomic_t stop_sig;
static double deadline;
static atomic_int deadline_hit;

static void on_signal(int sig)
{
    stop_sig = sig;
    atomic_store(&stop_flag, 1);
}

void stop_install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SIGHUP: a closed terminal or ssh session; SIGPIPE: stdout's reader went away
     * (| head). Each stops the run like SIGTERM, so what was measured is kept and
     * the JSON says why it ended. */
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

void stop_set_deadline(double when)
{
    deadline = when;
}

bool stop_requested(void)
{
    if (atomic_load_explicit(&stop_flag, memory_order_relaxed))
        return true;
    if (deadline > 0 && clock_now() >= deadline) {
        atomic_store(&deadline_hit, 1);
        atomic_store(&stop_flag, 1);
        return true;
    }
    return false;
}

int stop_signal(void)
{
    return (int)stop_sig;
}

bool stop_deadline_passed(void)
{
    return atomic_load(&deadline_hit) != 0;
}

void stop_request(int sig)
{
    stop_sig = sig;
    atomic_store(&stop_flag, 1);
}

void stop_reset(void)
{
    stop_sig = 0;
    deadline = 0;
    atomic_store(&stop_flag, 0);
    atomic_store(&deadline_hit, 0);
}
