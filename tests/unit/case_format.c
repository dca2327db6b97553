/* SPDX-License-Identifier: MIT */
/*
 * The conformance runner's reading of case format version 2 (docs/case-format.md
 * "Additions (version 2)"), host only: exact integer literals (each number's
 * text attached after cJSON's parse), variadic tensor lists and the builder
 * helpers over them, the output matching and per-element comparison, and
 * the attribute readers (64-bit integers, type names, typed values).
 * Expected values are the decimal values written in the texts themselves.
 */
#include <criterion/criterion.h>

/* Built where the runner's library is (DMLCL_BUILD_CONFORMANCE, which needs cJSON). */
#ifdef DMLCL_FUZZ_CASES

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runner.h"

static rt_suite load(const char *text)
{
    rt_suite s;
    memset(&s, 0, sizeof s);
    rt_suite_load_text(&s, "t.json", text, strlen(text));
    return s;
}

static void number_texts(const cJSON *n, const char **out, unsigned *k)
{
    for (; n != NULL; n = n->next) {
        if (cJSON_IsNumber(n) && *k < 16)
            out[(*k)++] = rt_json_number_text(n);
        number_texts(n->child, out, k);
    }
}

Test(case_format, literals_attach_in_document_order)
{
    /* Digits, minus signs and quotes inside strings and keys are not numbers. */
    const char *text = "{\"a\\\"1-\": [1, -2.5e+3, \"3 4\\\\\", {\"k5\": 18446744073709551615}],"
                       " \"b\": \"\\u0036\\\"7\", \"c\": [0.000, -0], \"d\": true}";
    rt_suite s = load(text);
    cr_assert_eq(s.n_trees, 1);
    const char *got[16];
    unsigned k = 0;
    number_texts(s.trees[0], got, &k);
    const char *want[] = {"1", "-2.5e+3", "18446744073709551615", "0.000", "-0"};
    cr_assert_eq(k, 5, "%u numbers", k);
    for (unsigned i = 0; i < k; ++i)
        cr_expect_str_eq(got[i], want[i], "number %u", i);
    rt_suite_free(&s);
}

static const cJSON *item(const rt_suite *s, int i)
{
    return cJSON_GetArrayItem(s->trees[0], i);
}

Test(case_format, integers_are_exact)
{
    rt_suite s = load("[9223372036854775807, -9223372036854775808, 18446744073709551615,"
                      " 9007199254740993, 1e3, 1.5e1, 2.0, 100e-2, 12345678901234567890e-1,"
                      " 0e99999, -0, \"-42\", \"+7\", 1.0000000000000000000000000000000000000,"
                      " 0.00000000000000000000000000000000000005e38]");
    const uint64_t mags[] = {9223372036854775807u,
                             9223372036854775808u,
                             18446744073709551615u,
                             9007199254740993u,
                             1000,
                             15,
                             2,
                             1,
                             1234567890123456789u,
                             0,
                             0,
                             42,
                             7,
                             1,
                             5};
    const int negs[] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0};
    for (int i = 0; i < 15; ++i) {
        int neg = -1;
        uint64_t mag = 1;
        char why[256] = "";
        cr_expect_eq(rt_json_integer(item(&s, i), &neg, &mag, why, sizeof why), 0, "%d: %s", i,
                     why);
        cr_expect_eq(mag, mags[i], "%d: magnitude %llu", i, (unsigned long long)mag);
        cr_expect_eq(neg, negs[i], "%d: sign", i);
    }
    rt_suite_free(&s);
}

Test(case_format, non_integers_are_refused)
{
    rt_suite s = load("[1.5, 1e-1, 18446744073709551616, 1e20, \"1.0\", \"12a\", true,"
                      " 1.00000000000000000000000000001, 100000000000000000000000000001e-5]");
    const char *reason[] = {"1.5 is not an integer",
                            "1e-1 is not an integer",
                            "18446744073709551616 is beyond the 64-bit integers",
                            "1e20 is beyond the 64-bit integers",
                            "\"1.0\" is not a decimal integer",
                            "\"12a\" is not a decimal integer",
                            "must be a number or a decimal string",
                            "1.00000000000000000000000000001 is not a 64-bit integer",
                            "100000000000000000000000000001e-5 is not a 64-bit integer"};
    for (int i = 0; i < 9; ++i) {
        int neg;
        uint64_t mag;
        char why[256] = "";
        cr_expect_eq(rt_json_integer(item(&s, i), &neg, &mag, why, sizeof why), -1, "%d", i);
        cr_expect(strstr(why, reason[i]) != NULL, "%d: \"%s\"", i, why);
    }
    rt_suite_free(&s);
}

Test(case_format, values_by_type)
{
    rt_suite s = load("[9223372036854775807, -9223372036854775809, 18446744073709551615, -1, -0,"
                      " 127, 128, 2.5]");
    const rt_type *i64 = rt_type_by_name("INT64"), *u64 = rt_type_by_name("UINT64");
    const rt_type *i8 = rt_type_by_name("INT8"), *f32 = rt_type_by_name("FLOAT32");
    char why[256];
    int64_t x = 0;
    uint64_t u = 0;
    int8_t b = 0;
    float f = 0;
    cr_expect_eq(rt_value_parse(i64, item(&s, 0), &x, why, sizeof why), 0, "%s", why);
    cr_expect_eq(x, INT64_MAX);
    cr_expect_eq(rt_value_parse(i64, item(&s, 1), &x, why, sizeof why), -1);
    cr_expect(strstr(why, "-9223372036854775809 is out of range for INT64") != NULL, "%s", why);
    cr_expect_eq(rt_value_parse(u64, item(&s, 2), &u, why, sizeof why), 0, "%s", why);
    cr_expect_eq(u, UINT64_MAX);
    cr_expect_eq(rt_value_parse(u64, item(&s, 3), &u, why, sizeof why), -1);
    cr_expect(strstr(why, "-1 is out of range for UINT64") != NULL, "%s", why);
    cr_expect_eq(rt_value_parse(u64, item(&s, 4), &u, why, sizeof why), 0, "%s", why);
    cr_expect_eq(u, 0);
    cr_expect_eq(rt_value_parse(i8, item(&s, 5), &b, why, sizeof why), 0, "%s", why);
    cr_expect_eq(b, 127);
    cr_expect_eq(rt_value_parse(i8, item(&s, 6), &b, why, sizeof why), -1);
    cr_expect(strstr(why, "128 is out of range for INT8") != NULL, "%s", why);
    cr_expect_eq(rt_value_parse(i64, item(&s, 7), &x, why, sizeof why), -1);
    cr_expect(strstr(why, "2.5 is not an integer") != NULL, "%s", why);
    cr_expect_eq(rt_value_parse(f32, item(&s, 7), &f, why, sizeof why), 0, "%s", why);
    cr_expect_eq(f, 2.5f);
    rt_suite_free(&s);
}

/* ---- Variadic tensors ------------------------------------------------------------ */

#define T1(v) "{\"type\": \"INT32\", \"shape\": [1], \"data\": [" #v "]}"
#define D1 "{\"type\": \"INT32\", \"shape\": [1]}"

static const char *const list_case =
    "{\"name\": \"t\", \"source\": \"s\", \"op\": \"TEST_LIST\", \"inputs\": {"
    "\"InputTensors\": [" T1(1) ", " T1(2) ", " T1(3) "], \"One\": " T1(
        4) ","
           " \"Empty\": [], \"OutputTensors\": [" D1 ", " D1 "]},"
           " \"expected\": {\"outputs\": {\"OutputTensors\": [" T1(5) ", " T1(6) "]}}}";

static void start(rt_build *b, const rt_case *c)
{
    memset(b, 0, sizeof *b);
    b->c = c;
}

Test(case_format, input_lists)
{
    rt_suite s = load(list_case);
    cr_assert_eq(s.n_cases, 1);
    const rt_case *c = &s.cases[0];
    cr_assert_null(c->malformed, "%s", c->malformed);
    rt_build b;
    start(&b, c);
    const rt_tensor *const *ts;
    unsigned n = 99;
    int given = -1;
    cr_expect_eq(rt_input_list(&b, "InputTensors", &ts, &n, NULL), 0, "%s", b.why);
    cr_assert_eq(n, 3);
    for (unsigned i = 0; i < 3; ++i)
        cr_expect_eq(rt_value_int(ts[i]->type, ts[i]->elems), (int64_t)i + 1);
    cr_expect_eq(rt_input_list(&b, "Empty", &ts, &n, &given), 0, "%s", b.why);
    cr_expect_eq(n, 0);
    cr_expect_eq(given, 1);
    cr_expect_eq(rt_input_list(&b, "Absent", &ts, &n, &given), 0);
    cr_expect_eq(given, 0);
    cr_expect_null(ts);
    cr_expect_eq(rt_input_list(&b, "Absent", &ts, &n, NULL), -1);
    cr_expect(strstr(b.why, "TEST_LIST needs inputs.Absent (a list of tensors)") != NULL, "%s",
              b.why);
    unsigned count = 0;
    cr_expect_eq(rt_output_count(&b, "OutputTensors", "OutputTensors", &count), 0, "%s", b.why);
    cr_expect_eq(count, 2);
    cr_expect_eq(b.malformed, 0);

    /* One tensor where a list belongs, and a list where one belongs: malformed, first reason kept.
     */
    cr_expect_eq(rt_input_list(&b, "One", &ts, &n, NULL), -1);
    cr_expect_eq(b.malformed, 1);
    cr_expect_str_eq(b.why, "inputs.One is one tensor; TEST_LIST takes a list of tensors there "
                            "(a JSON list)");
    start(&b, c);
    cr_expect_null(rt_input(&b, "InputTensors"));
    cr_expect_eq(b.malformed, 1);
    cr_expect_str_eq(b.why, "inputs.InputTensors is a list of tensors; TEST_LIST takes one tensor "
                            "there");
    rt_fail(&b, "a later reason");
    cr_expect(strstr(b.why, "InputTensors is a list") != NULL, "%s", b.why);
    start(&b, c);
    cr_expect_null(rt_expected(&b, "OutputTensors"));
    cr_expect_str_eq(b.why, "expected.outputs.OutputTensors is a list of tensors; TEST_LIST "
                            "writes one tensor there");
    rt_suite_free(&s);
}

Test(case_format, output_lists_bound_from_descriptors)
{
    rt_suite s = load(list_case);
    rt_build b;
    start(&b, &s.cases[0]);
    const DML_TENSOR_DESC *descs = NULL;
    unsigned n = 0;
    cr_expect_eq(rt_bind_output_list(&b, "OutputTensors", &descs, &n), 0, "%s", b.why);
    cr_assert_eq(n, 2);
    cr_assert_eq(b.n_outputs, 2);
    for (unsigned i = 0; i < 2; ++i) {
        cr_expect_str_eq(b.output_names[i], "OutputTensors");
        cr_expect_eq(b.output_index[i], (int)i);
        cr_expect_eq(descs[i].Type, DML_TENSOR_TYPE_BUFFER);
        cr_expect_eq(descs[i].Desc, &b.outputs[i]->buffer_desc);
    }
    rt_build_free(&b);
    /* Descriptors under inputs take no data. */
    start(&b, &s.cases[0]);
    cr_expect_eq(rt_bind_output_list(&b, "InputTensors", &descs, &n), -1);
    cr_expect_str_eq(b.why, "inputs.InputTensors[0] describes an output and takes no data");
    rt_build_free(&b);
    rt_suite_free(&s);
}

/* A builder that reads a list as one tensor and carries on: the case is still malformed. */
static int careless_build(rt_build *b)
{
    (void)rt_input(b, "InputTensors");
    return 0;
}

Test(case_format, build_op_reports_form)
{
    rt_suite s = load(list_case);
    rt_build b;
    start(&b, &s.cases[0]);
    const rt_op op = {"TEST_LIST", careless_build};
    cr_expect_eq(rt_build_op(&op, &b), -1);
    cr_expect(strstr(b.why, "inputs.InputTensors is a list") != NULL, "%s", b.why);
    rt_build_free(&b);
    rt_suite_free(&s);
}

Test(case_format, output_count_rules)
{
    rt_suite s =
        load("{\"format\": \"dmlcl-case/1\", \"cases\": ["
             "{\"name\": \"a\", \"source\": \"s\", \"op\": \"TEST_LIST\", \"inputs\": "
             "{\"OutputTensors\": [" D1 ", " D1 ", " D1 "]}, \"expected\": {\"outputs\": "
             "{\"OutputTensors\": [" T1(5) ", " T1(
                 6) "]}}},"
                    "{\"name\": \"b\", \"source\": \"s\", \"op\": \"TEST_LIST\", \"inputs\": {},"
                    " \"expected\": {\"error\": \"invalid_argument\"}},"
                    "{\"name\": \"c\", \"source\": \"s\", \"op\": \"TEST_LIST\", \"inputs\": "
                    "{\"OutputTensors\": [" D1 "]}, \"expected\": {\"error\": "
                    "\"invalid_argument\"}}]}");
    cr_assert_eq(s.n_cases, 3);
    rt_build b;
    unsigned n = 0;
    start(&b, &s.cases[0]);
    cr_expect_eq(rt_output_count(&b, "OutputTensors", "OutputTensors", &n), -1);
    cr_expect_str_eq(b.why, "expected.outputs.OutputTensors has 2 tensors, inputs.OutputTensors "
                            "describes 3");
    start(&b, &s.cases[1]);
    cr_expect_eq(rt_output_count(&b, "outputs", NULL, &n), -1);
    cr_expect(strstr(b.why, "length of expected.outputs.outputs") != NULL, "%s", b.why);
    start(&b, &s.cases[2]);
    cr_expect_eq(rt_output_count(&b, "OutputTensors", "OutputTensors", &n), 0, "%s", b.why);
    cr_expect_eq(n, 1);
    rt_suite_free(&s);
}

Test(case_format, malformed_lists)
{
    rt_suite s =
        load("{\"format\": \"dmlcl-case/1\", \"cases\": ["
             "{\"name\": \"a\", \"source\": \"s\", \"op\": \"X\", \"inputs\": "
             "{\"L\": [" T1(1) ", {\"shape\": [1]}]}, \"expected\": {\"error\": "
                               "\"invalid_argument\"}},"
                               "{\"name\": \"b\", \"source\": \"s\", \"op\": \"X\", \"inputs\": {},"
                               " \"expected\": {\"outputs\": {\"L\": []}}},"
                               "{\"name\": \"c\", \"source\": \"s\", \"op\": \"X\", \"inputs\": {},"
                               " \"expected\": {\"outputs\": {\"L\": [" T1(1) ", " D1 "]}}}]}");
    cr_assert_eq(s.n_cases, 3);
    cr_expect_str_eq(s.cases[0].malformed,
                     "inputs.L[1].type is required (a type name such as \"FLOAT32\")");
    cr_expect_str_eq(s.cases[1].malformed, "expected.outputs.L is an empty list");
    cr_expect_str_eq(s.cases[2].malformed, "expected.outputs.L[1] has no data");
    rt_suite_free(&s);
}

Test(case_format, too_many_tensors)
{
    char text[16384];
    size_t used = (size_t)snprintf(text, sizeof text,
                                   "{\"name\": \"t\", \"source\": \"s\", \"op\": \"X\", "
                                   "\"inputs\": {\"A\": " T1(0) ", \"L\": [");
    for (int i = 0; i < RT_MAX_TENSORS; ++i)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s" T1(1), i ? ", " : "");
    snprintf(text + used, sizeof text - used,
             "]}, \"expected\": {\"error\": \"invalid_argument\"}}");
    rt_suite s = load(text);
    cr_assert_eq(s.n_cases, 1);
    cr_expect_str_eq(s.cases[0].malformed, "inputs.L: more than 64 tensors in all");
    rt_suite_free(&s);
}

/* Output slots bound like a builder binds them, holding the given values. */
static void bind_outputs(rt_build *b, const char *name, int list, unsigned n, const int32_t *vals)
{
    const rt_type *t = rt_type_by_name("INT32");
    const UINT one = 1;
    for (unsigned i = 0; i < n; ++i) {
        rt_tensor *o = list ? rt_add_list_output(b, name, i, t, 1, &one, NULL)
                            : rt_add_output(b, name, t, 1, &one, NULL);
        cr_assert_not_null(o, "%s", b->why);
        cr_assert_eq(rt_tensor_fill_sentinel(o), 0);
        memcpy(o->buffer, &vals[i], 4);
    }
}

Test(case_format, list_outputs_compared_per_element)
{
    rt_suite s = load(list_case);
    const rt_case *c = &s.cases[0];
    rt_build b;
    rt_result r;
    const int32_t right[] = {5, 6}, wrong[] = {5, 7};

    start(&b, c);
    bind_outputs(&b, "OutputTensors", 1, 2, right);
    cr_expect_eq(rt_match_outputs(c, &b, &r), 0, "%s", r.detail);
    rt_check_outputs(c, &b, &r);
    cr_expect_eq(r.passed, 1, "%s", r.detail);
    rt_build_free(&b);

    start(&b, c);
    bind_outputs(&b, "OutputTensors", 1, 2, wrong);
    rt_check_outputs(c, &b, &r);
    cr_expect_eq(r.passed, 0);
    cr_expect(strncmp(r.detail, "OutputTensors[1] element 0 [0]: expected 6 (0x00000006), got 7",
                      62) == 0,
              "%s", r.detail);
    rt_build_free(&b);

    start(&b, c);
    bind_outputs(&b, "OutputTensors", 1, 1, right);
    cr_expect_eq(rt_match_outputs(c, &b, &r), -1);
    cr_expect_str_eq(r.detail, "malformed case: expected.outputs.OutputTensors lists 2 tensors, "
                               "TEST_LIST writes 1");
    rt_build_free(&b);

    start(&b, c);
    bind_outputs(&b, "OutputTensors", 0, 1, right);
    cr_expect_eq(rt_match_outputs(c, &b, &r), -1);
    cr_expect_str_eq(r.detail, "malformed case: expected.outputs.OutputTensors is a list of "
                               "tensors; TEST_LIST writes one tensor there");
    rt_build_free(&b);
    rt_suite_free(&s);
}

Test(case_format, single_output_given_where_list_is_written)
{
    rt_suite s = load("{\"name\": \"t\", \"source\": \"s\", \"op\": \"TEST_LIST\", \"inputs\": {},"
                      " \"expected\": {\"outputs\": {\"outputs\": " T1(5) "}}}");
    const rt_case *c = &s.cases[0];
    rt_build b;
    rt_result r;
    const int32_t v[] = {5, 6};
    start(&b, c);
    bind_outputs(&b, "outputs", 1, 2, v);
    cr_expect_eq(rt_match_outputs(c, &b, &r), -1);
    cr_expect_str_eq(r.detail, "malformed case: expected.outputs.outputs is one tensor; TEST_LIST "
                               "writes a list of tensors there (a JSON list)");
    rt_build_free(&b);
    rt_suite_free(&s);
}

/* ---- Attributes --------------------------------------------------------------------- */

Test(case_format, attributes)
{
    rt_suite s =
        load("{\"name\": \"t\", \"source\": \"s\", \"op\": \"X\", \"inputs\": {},"
             " \"expected\": {\"error\": \"invalid_argument\"}, \"attrs\": {"
             "\"A\": 9223372036854775807, \"L\": [-9223372036854775808, 1e2, \"-5\"],"
             " \"T\": \"INT64\", \"V\": 9223372036854775807, \"F\": \"FLOAT32\","
             " \"FV\": \"-inf\", \"U8\": 256, \"Frac\": 1.5, \"Big\": 18446744073709551615,"
             " \"Bad\": \"int64\", \"U\": 4294967295}}");
    const rt_case *c = &s.cases[0];
    cr_assert_null(c->malformed, "%s", c->malformed);
    rt_build b;
    start(&b, c);
    int64_t x = 0, *list = NULL;
    uint64_t u = 0;
    unsigned n = 0;
    UINT u32 = 0;
    const rt_type *t = NULL;
    cr_expect_eq(rt_attr_int64(&b, "A", 0, &x), 0, "%s", b.why);
    cr_expect_eq(x, INT64_MAX);
    cr_expect_eq(rt_attr_int64(&b, "Absent", -3, &x), 0);
    cr_expect_eq(x, -3);
    cr_expect_eq(rt_attr_int64_list(&b, "L", &list, &n), 0, "%s", b.why);
    cr_assert_eq(n, 3);
    cr_expect_eq(list[0], INT64_MIN);
    cr_expect_eq(list[1], 100);
    cr_expect_eq(list[2], -5);
    cr_expect_eq(rt_attr_uint64(&b, "Big", 0, &u), 0, "%s", b.why);
    cr_expect_eq(u, UINT64_MAX);
    cr_expect_eq(rt_attr_uint(&b, "U", 0, &u32), 0, "%s", b.why);
    cr_expect_eq(u32, 4294967295u);
    cr_expect_eq(rt_attr_type(&b, "T", &t), 0, "%s", b.why);
    cr_expect_eq(t, rt_type_by_name("INT64"));
    cr_expect_eq(rt_attr_value(&b, "V", t, &x), 0, "%s", b.why);
    cr_expect_eq(x, INT64_MAX);
    cr_expect_eq(rt_attr_type(&b, "F", &t), 0, "%s", b.why);
    float f = 0;
    cr_expect_eq(rt_attr_value(&b, "FV", t, &f), 0, "%s", b.why);
    cr_expect(f < 0 && f * 0 != 0, "-inf");
    cr_expect_eq(rt_attr_value(&b, "Absent", t, &f), 0);
    cr_expect_eq(f, 0.0f);

    cr_expect_eq(rt_attr_int64(&b, "Big", 0, &x), -1);
    cr_expect_str_eq(b.why, "attrs.Big must be a 64-bit signed integer: 18446744073709551615 is "
                            "outside [-9223372036854775808, 9223372036854775807]");
    cr_expect_eq(rt_attr_uint(&b, "Frac", 0, &u32), -1);
    cr_expect_str_eq(b.why, "attrs.Frac must be an integer in [0, 2^32): 1.5 is not an integer");
    uint8_t byte;
    cr_expect_eq(rt_attr_value(&b, "U8", rt_type_by_name("UINT8"), &byte), -1);
    cr_expect_str_eq(b.why, "attrs.U8: 256 is out of range for UINT8");
    cr_expect_eq(rt_attr_type(&b, "Bad", &t), -1);
    cr_expect_str_eq(b.why,
                     "attrs.Bad must be a type name of the case format (FLOAT32, INT64, ...)");
    rt_build_free(&b);
    rt_suite_free(&s);
}

#endif /* DMLCL_FUZZ_CASES */
