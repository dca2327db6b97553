/* SPDX-License-Identifier: MIT */
/*
 * Verdicts and output comparison (shared by run.c and graph.c, and in the
 * runner's library so the unit tests reach them without a device): expected
 * outputs, single tensors or lists (version 2), matched to the build's
 * output slots and compared element by element.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runner.h"

void rt_verdict(rt_result *r, int passed, const char *fmt, ...)
{
    va_list ap;
    r->passed = passed;
    va_start(ap, fmt);
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
}

static int is_sentinel(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (p[i] != RT_OUTPUT_SENTINEL)
            return 0;
    return 1;
}

/* One element within tolerance: exact for integers and without one; for floats within ulp
 * units or abs of the expected value, NaN matching NaN and an infinity only itself. */
static int element_matches(const rt_type *t, const unsigned char *e, const unsigned char *g,
                           const rt_tolerance *tol)
{
    if (!tol || t->kind != RT_KIND_FLOAT || (!tol->has_ulp && !tol->has_abs))
        return memcmp(e, g, t->size) == 0;
    double de = rt_value_double(t, e), dg = rt_value_double(t, g);
    if (isnan(de) || isnan(dg))
        return isnan(de) && isnan(dg);
    if (isinf(de) || isinf(dg))
        return de == dg;
    return (tol->has_ulp && rt_ulp_distance(t, e, g) <= tol->ulp) ||
           (tol->has_abs && fabs(dg - de) <= tol->abs);
}

int rt_compare_output(const char *name, const rt_tensor *exp, const rt_tensor *got,
                      const rt_tolerance *tol, rt_result *r)
{
    char es[128], gs[128], within[96] = "";
    if (exp->type != got->type) {
        rt_verdict(r, 0, "%s has type %s, expected %s", name, got->type->name, exp->type->name);
        return -1;
    }
    if (exp->rank != got->rank || memcmp(exp->sizes, got->sizes, exp->rank * sizeof(UINT)) != 0) {
        rt_format_shape(exp->rank, exp->sizes, es, sizeof es);
        rt_format_shape(got->rank, got->sizes, gs, sizeof gs);
        rt_verdict(r, 0, "%s has shape %s, expected %s", name, gs, es);
        return -1;
    }
    const size_t size = exp->type->size;
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < exp->count; ++i) {
        const unsigned char *e = exp->elems + i * size;
        const unsigned char *g = got->buffer + rt_tensor_offset(got, i);
        if (!element_matches(exp->type, e, g, tol) && bad++ == 0)
            first = i;
    }
    if (bad == 0)
        return 0;
    const unsigned char *e = exp->elems + first * size;
    const unsigned char *g = got->buffer + rt_tensor_offset(got, first);
    char coords[128];
    rt_tensor_format_coords(exp, first, coords, sizeof coords);
    rt_value_format(exp->type, e, es, sizeof es);
    rt_value_format(exp->type, g, gs, sizeof gs);
    if (exp->type->kind == RT_KIND_FLOAT && tol && (tol->has_ulp || tol->has_abs)) {
        uint64_t d = rt_ulp_distance(exp->type, e, g);
        int n = snprintf(within, sizeof within, " (%" PRIu64 " ulp apart; tolerance", d);
        if (tol->has_ulp)
            n += snprintf(within + n, sizeof within - (size_t)n, " %" PRIu64 " ulp", tol->ulp);
        if (tol->has_abs)
            snprintf(within + n, sizeof within - (size_t)n, "%s abs %g", tol->has_ulp ? " or" : "",
                     tol->abs);
        strncat(within, ")", sizeof within - strlen(within) - 1);
    }
    rt_verdict(r, 0,
               "%s element %" PRIu64 " %s: expected %s, got %s%s%s; %" PRIu64 " of %" PRIu64
               " elements differ",
               name, first, coords, es, gs,
               is_sentinel(g, size) ? " (sentinel: never written)" : "", within, bad, exp->count);
    return -1;
}

/* The build's output slot for element index (-1: one tensor) of name, or -1. */
static int output_slot(const rt_build *b, const char *name, int index)
{
    for (unsigned k = 0; k < b->n_outputs; ++k)
        if (strcmp(b->output_names[k], name) == 0 && b->output_index[k] == index)
            return (int)k;
    return -1;
}

int rt_match_outputs(const rt_case *c, const rt_build *b, rt_result *r)
{
    for (unsigned i = 0; i < c->n_outputs; ++i) {
        const rt_named *o = &c->outputs[i];
        unsigned slots = 0;
        int single = 0;
        for (unsigned k = 0; k < b->n_outputs; ++k)
            if (strcmp(b->output_names[k], o->name) == 0) {
                ++slots;
                single |= b->output_index[k] < 0;
            }
        if (slots == 0) {
            rt_verdict(r, 0, "malformed case: %s has no output \"%s\"", c->op, o->name);
            return -1;
        }
        if (o->is_list != !single) {
            rt_verdict(r, 0,
                       o->is_list ? "malformed case: expected.outputs.%s is a list of tensors; "
                                    "%s writes one tensor there"
                                  : "malformed case: expected.outputs.%s is one tensor; %s "
                                    "writes a list of tensors there (a JSON list)",
                       o->name, c->op);
            return -1;
        }
        if (o->is_list && slots != o->count) {
            rt_verdict(r, 0, "malformed case: expected.outputs.%s lists %u tensors, %s writes %u",
                       o->name, o->count, c->op, slots);
            return -1;
        }
    }
    return 0;
}

void rt_check_outputs(const rt_case *c, const rt_build *b, rt_result *r)
{
    char name[160];
    for (unsigned i = 0; i < c->n_outputs; ++i) {
        const rt_named *o = &c->outputs[i];
        for (unsigned e = 0; e < (o->is_list ? o->count : 1); ++e) {
            int slot = output_slot(b, o->name, o->is_list ? (int)e : -1);
            if (o->is_list)
                snprintf(name, sizeof name, "%s[%u]", o->name, e);
            else
                snprintf(name, sizeof name, "%s", o->name);
            if (slot < 0) {
                rt_verdict(r, 0, "the operator has no output %s", name);
                return;
            }
            const rt_tensor *exp = o->is_list ? o->list[e] : o->t;
            /* The output's tolerance, else the case's, else the operator's default. */
            rt_tolerance def = {b->ulp_tolerance > 0, b->abs_tolerance > 0, b->ulp_tolerance,
                                b->abs_tolerance};
            const rt_tolerance *tol = exp->tol.has_ulp || exp->tol.has_abs ? &exp->tol
                                      : c->tol.has_ulp || c->tol.has_abs   ? &c->tol
                                                                           : &def;
            if (rt_compare_output(name, exp, b->outputs[slot], tol, r))
                return;
        }
    }
    rt_verdict(r, 1, "%s", "");
}
