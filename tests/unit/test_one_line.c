/* SPDX-License-Identifier: MIT */
/* util/one_line.c: what a terminal would act on (C0, DEL, C1, bidi controls,
 * bytes that are not UTF-8) becomes '?', and text stays text. */
#include <stdlib.h>
#include <string.h>

#include "util/one_line.h"
#include "test.h"

static void neutralised(const char *in, const char *want)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", in);
    one_line(buf);
    if (strcmp(buf, want) != 0)
        test_fail(__FILE__, __LINE__, "one_line(%s): \"%s\", expected \"%s\"", want, buf, want);
    if (!one_line_is_safe(buf, false))
        test_fail(__FILE__, __LINE__, "%s: not safe after one_line", want);
}

TEST(one_line_replaces_every_terminal_control)
{
    neutralised("vm\x1b]0;owned\x07", "vm?]0;owned?");     /* ESC ... BEL: the window title */
    neutralised("a\x1b[2Jb", "a?[2Jb");                     /* clear the screen */
    neutralised("x\ry\nz\tw\x0b\x0c\x7f", "x?y?z?w???");   /* CR, newline, tab, VT, FF, DEL */
    neutralised("c1 \xc2\x80 \xc2\x85 \xc2\x9b \xc2\x9f", "c1 ? ? ? ?"); /* C1 as UTF-8, CSI among them */
    neutralised("\xe2\x80\xae" "gnp.exe", "?gnp.exe");      /* U+202E right-to-left override */
    neutralised("\xd8\x9c \xe2\x80\x8e \xe2\x80\x8f \xe2\x80\xaa \xe2\x80\xad", "? ? ? ? ?"); /* 061C, 200E/F, 202A, 202D */
    neutralised("\xe2\x81\xa6 \xe2\x81\xa9", "? ?");         /* U+2066, U+2069 isolates */
    neutralised("a\xe2\x80\xa8" "b\xe2\x80\xa9" "c", "a?b?c");  /* U+2028, U+2029 line/paragraph separators */
    neutralised("lone \x9b byte \xff \xc2", "lone ? byte ? ?"); /* not UTF-8: one '?' a byte */
}

TEST(one_line_keeps_text)
{
    neutralised("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz");
    neutralised("\xc2\xb1" "2.5% caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80", "\xc2\xb1" "2.5% caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80");
    neutralised("\xc2\xa0 \xe2\x80\x8d \xe2\x80\xa7 \xe2\x80\xaf \xe2\x81\xaa", "\xc2\xa0 \xe2\x80\x8d \xe2\x80\xa7 \xe2\x80\xaf \xe2\x81\xaa"); /* neighbours of the controls */
    char lines[] = "a\nb\x1b" "c\n";
    CHECK_STR(safe_lines(lines), "a\nb?c\n");
    CHECK(one_line_is_safe(lines, true) && !one_line_is_safe(lines, false));
}

TEST(one_line_copy_and_put)
{
    char small[8];
    CHECK_STR(one_line_copy(small, sizeof small, "ab\x1b[2Jcdef"), "ab?[2Jc");
    CHECK_STR(one_line_copy(small, sizeof small, "abcdef\xc3\xa9z"), "abcdef"); /* never half a character */
    CHECK_STR(one_line_copy(small, 1, "abc"), "");
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return;
    one_line_put(f, "host\x1b]2;x\x07\xe2\x80\xae\n");
    fclose(f);
    CHECK_STR(out, "host?]2;x???");
    free(out);
}
