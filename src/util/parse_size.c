/* SPDX-License-Identifier: MIT */
#include "util/parse_size.h"

#include <string.h>

#include "util/parse_number.h"

bool parse_size(const char *text, uint64_t min, uint64_t max, uint64_t *bytes)
{
    if (!text)
        return false;
    char digits[32];
    size_t len = strlen(text);
    if (len == 0 || len >= sizeof digits)
        return false;
    uint64_t unit = 1024;
    memcpy(digits, text, len + 1);
    char last = digits[len - 1];
    if (last == 'K' || last == 'k' || last == 'M' || last == 'm' || last == 'G' || last == 'g') {
        unit = (last == 'K' || last == 'k') ? 1ULL << 10 : (last == 'M' || last == 'm') ? 1ULL << 20 : 1ULL << 30;
        digits[len - 1] = '\0';
    }
    uint64_t v;
    if (!parse_u64(digits, 0, UINT64_MAX / unit, &v))
        return false;
    v *= unit;
    if (v < min || v > max)
        return false;
    *bytes = v;
    return true;
}
