/* SPDX-License-Identifier: MIT */
/* The strict JSON reader (util/json_parse.c): what it accepts comes back exactly,
 * and each thing RFC 8259 refuses is refused with the line and column. */
#include <math.h>
#include <stdlib.h>

#include "util/json_parse.h"
#include "test.h"

static bool parses(const char *text, json_value *v)
{
    char err[256];
    return json_parse(text, strlen(text), v, err, sizeof err);
}

/* Refused, and the message contains needle. */
static void refused(const char *text, const char *needle)
{
    json_value v;
    char err[256] = "";
    bool ok = json_parse(text, strlen(text), &v, err, sizeof err);
    if (ok) {
        test_fail(__FILE__, __LINE__, "accepted: %s", text);
        json_value_free(&v);
        return;
    }
    CHECK(v.type == JV_NULL && v.items == NULL && v.text == NULL);
    if (!strstr(err, needle))
        test_fail(__FILE__, __LINE__, "%s: said \"%s\", expected \"%s\"", text, err, needle);
}

TEST(json_parse_document_and_lookups)
{
    json_value v;
    CHECK(parses(" {\"tool\": \"membench\", \"schema\": 2, \"ok\": true, \"no\": false, \"n\": null,\n"
                 "  \"list\": [1, -2.5e3, {\"x\": []}], \"o\": {}}\r\n\t",
                 &v));
    CHECK(v.type == JV_OBJECT);
    CHECK_INT(v.count, 7);
    CHECK_STR(json_get_text(&v, "tool"), "membench");
    long long schema = 0;
    CHECK(json_get_integer(&v, "schema", 0, 10, &schema));
    CHECK_INT(schema, 2);
    CHECK(!json_get_integer(&v, "schema", 3, 10, &schema)); /* out of the asked range */
    CHECK(json_get(&v, "ok")->type == JV_BOOL && json_get(&v, "ok")->boolean);
    CHECK(json_get(&v, "no")->type == JV_BOOL && !json_get(&v, "no")->boolean);
    CHECK(json_get(&v, "n")->type == JV_NULL);
    const json_value *list = json_get_array(&v, "list");
    CHECK(list && list->count == 3);
    if (list && list->count == 3) {
        CHECK_NEAR(list->items[1].number, -2500, 0);
        CHECK(json_get_array(&list->items[2], "x") && json_get_array(&list->items[2], "x")->count == 0);
    }
    CHECK(json_get_object(&v, "o") && json_get_object(&v, "o")->count == 0);
    /* Wrong types and absent keys are NULL / false, never a crash. */
    CHECK(json_get_text(&v, "schema") == NULL);
    CHECK(json_get_array(&v, "tool") == NULL);
    CHECK(json_get(&v, "absent") == NULL);
    CHECK(json_get(NULL, "tool") == NULL);
    CHECK(json_get_text(list, "tool") == NULL);
    double d;
    CHECK(!json_get_number(&v, "tool", &d));
    json_value_free(&v);
}

TEST(json_parse_numbers)
{
    static const struct {
        const char *text;
        double value;
    } good[] = {{"0", 0}, {"-0", 0}, {"7", 7}, {"-12", -12}, {"0.5", 0.5}, {"1e3", 1000}, {"1E+3", 1000},
                {"25e-1", 2.5}, {"-0.0e0", 0}, {"156933.52564594004", 156933.52564594004}, {"1e-400", 0}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        json_value v;
        CHECK(parses(good[i].text, &v));
        if (v.type != JV_NUMBER || v.number != good[i].value)
            test_fail(__FILE__, __LINE__, "%s read as %.17g", good[i].text, v.number);
        json_value_free(&v);
    }
    refused("01", "leading zero");
    refused("-01", "leading zero");
    refused("+1", "not a value");
    refused("1.", "ends early");
    refused("1.x", "digit must follow");
    refused(".5", "not a value");
    refused("1e", "ends early");
    refused("1e+", "ends early");
    refused("1ex", "exponent needs digits");
    refused("-", "ends early");
    refused("NaN", "not a value");
    refused("Infinity", "not a value");
    refused("1e400", "out of range");
    refused("0x10", "after the JSON value");
    refused("[1 2]", "expected ','");
}

TEST(json_parse_strings_and_escapes)
{
    json_value v;
    CHECK(parses("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", &v));
    CHECK_STR(v.text, "a\"b\\c/d\b\f\n\r\t");
    json_value_free(&v);
    CHECK(parses("\"\\u00e9\\u20AC\\ud83d\\ude00\"", &v)); /* é € 😀 */
    CHECK_STR(v.text, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    CHECK_INT(v.len, 9);
    json_value_free(&v);
    CHECK(parses("\"caf\xc3\xa9\"", &v)); /* raw UTF-8 stays */
    CHECK_STR(v.text, "caf\xc3\xa9");
    json_value_free(&v);
    CHECK(parses("{\"k\": \"a\\u0000b\"}", &v)); /* a NUL inside: kept, but not a C string */
    CHECK_INT(json_get(&v, "k")->len, 3);
    CHECK(json_get_text(&v, "k") == NULL);
    json_value_free(&v);
    refused("\"a\tb\"", "control character 0x09");
    refused("\"a\nb\"", "control character 0x0a");
    refused("\"\\x41\"", "invalid escape \\x");
    refused("\"\\'\"", "invalid escape");
    refused("\"\\u12\"", "four hex digits");
    refused("\"\\u12g4\"", "four hex digits");
    refused("\"\\ud800\"", "lone surrogate");
    refused("\"\\ud800\\u0041\"", "lone surrogate");
    refused("\"\\udc00\"", "lone surrogate");
    refused("\"\xff\"", "not UTF-8");
    refused("\"\xc0\xaf\"", "not UTF-8");   /* overlong '/' */
    refused("\"\xed\xa0\x80\"", "not UTF-8"); /* an encoded surrogate */
    refused("\xef\xbb\xbf{}", "not a value"); /* a byte-order mark */
    refused("\"abc", "ends early");
    refused("\"abc\\", "ends early");
    refused("'a'", "not a value");
}

TEST(json_parse_structure_refusals)
{
    refused("", "empty");
    refused("   ", "ends early");
    refused("{", "ends early");
    refused("{\"a\"", "ends early");
    refused("{\"a\":", "ends early");
    refused("{\"a\":1", "ends early");
    refused("[1,", "ends early");
    refused("{\"tool\": \"membench\", \"results\": [{\"value\": 1.5", "ends early");
    refused("[1,]", "comma before ']'");
    refused("{\"a\":1,}", "comma before '}'");
    refused("{a:1}", "key in quotes");
    refused("{\"a\" 1}", "expected ':'");
    refused("{\"a\":1 \"b\":2}", "expected ',' or '}'");
    refused("{\"a\":1,\"a\":2}", "key \"a\" twice");
    refused("{\"b\":1,\"a\":2,\"c\":3,\"a\":4}", "key \"a\" twice");
    refused("[] []", "after the JSON value");
    refused("tru", "ends early");
    refused("trUe", "not a value");
    refused("nul", "ends early");
    json_value v;
    char err[256];
    CHECK(!json_parse("[1]\0", 4, &v, err, sizeof err)); /* a NUL after the value */
    CHECK_CONTAINS(err, "after the JSON value");
    CHECK(parses("{\"a\":1,\"A\":2,\"ab\":3}", &v)); /* keys that only look alike */
    json_value_free(&v);
}

TEST(json_parse_line_and_column)
{
    json_value v;
    char err[256];
    const char *text = "{\n  \"a\": 1,\n  \"b\": 01\n}";
    CHECK(!json_parse(text, strlen(text), &v, err, sizeof err));
    CHECK_CONTAINS(err, "line 3, column 8: number with a leading zero");
}

/* Nesting up to the limit parses; one deeper is refused, never a stack overflow. */
TEST(json_parse_depth_limit)
{
    char deep[2 * JSON_PARSE_MAX_DEPTH + 8];
    for (int extra = 0; extra <= 1; extra++) {
        int n = JSON_PARSE_MAX_DEPTH + extra;
        memset(deep, '[', (size_t)n);
        memset(deep + n, ']', (size_t)n);
        deep[2 * n] = '\0';
        json_value v;
        char err[256];
        bool ok = json_parse(deep, (size_t)(2 * n), &v, err, sizeof err);
        CHECK(ok == (extra == 0));
        if (ok)
            json_value_free(&v);
        else
            CHECK_CONTAINS(err, "nested deeper than 64");
    }
    size_t huge = 1000000; /* far past the limit: refused at the limit */
    char *h = malloc(huge);
    memset(h, '[', huge);
    json_value v;
    char err[256];
    CHECK(!json_parse(h, huge, &v, err, sizeof err));
    CHECK_CONTAINS(err, "nested deeper");
    free(h);
}

/* Many keys in one object: the repeat check stays fast (sorting, not pairs). */
TEST(json_parse_wide_object)
{
    size_t n = 200000;
    char *text = malloc(n * 16 + 4), *p = text;
    *p++ = '{';
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s\"k%zu\":%zu", i ? "," : "", i, i);
    *p++ = '}';
    json_value v;
    char err[256];
    CHECK(json_parse(text, (size_t)(p - text), &v, err, sizeof err));
    CHECK_INT(v.count, n);
    long long last = 0;
    CHECK(json_get_integer(&v, "k199999", 0, 1 << 30, &last) && last == 199999);
    json_value_free(&v);
    free(text);
}
