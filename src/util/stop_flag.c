#include "util/stop_flag.h"

atomic_int stop_flag;
