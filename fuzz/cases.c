/* SPDX-License-Identifier: MIT */
/*
 * fuzz_cases: bytes -> the conformance runner's case-file parser
 * (conformance/case.c) and, for each well-formed case, its operator builder
 * (front-ends included) and dmlcl_operator_create with a NULL device. Must
 * return on any text; no device work.
 */
#include <stdlib.h>
#include <string.h>

#include "drivers.h"
#include "runner.h"

int fuzz_cases(const uint8_t *data, size_t size, char *why, unsigned *accepted)
{
    int bad = 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    rt_suite s;
    memset(&s, 0, sizeof s);
    rt_suite_load_text(&s, "fuzz.json", text, size);
    free(text);
    for (size_t i = 0; i < s.n_cases; ++i) {
        const rt_case *c = &s.cases[i];
        const rt_op *op = c->malformed ? NULL : rt_op_find(c->op);
        if (!op)
            continue;
        rt_build b;
        memset(&b, 0, sizeof b);
        b.c = c;
        dmlcl_operator *o = NULL;
        if (rt_build_op(op, &b) == 0 && SUCCEEDED(b.frontend_hr) &&
            SUCCEEDED(dmlcl_operator_create(NULL, &b.desc, &o))) {
            dmlcl_operator_release(o);
            if (accepted)
                ++*accepted;
            bad = bad || fuzz_check_plan(&b.desc, why);
        }
        rt_build_free(&b);
    }
    rt_suite_free(&s);
    return bad;
}
