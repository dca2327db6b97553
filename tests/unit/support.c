/* SPDX-License-Identifier: MIT */
/* support.c: tensor builders, failure checks and tuning overrides shared by the unit tests. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

void unit_tensor_fit(unit_tensor *t)
{
    t->buf.TotalTensorSizeInBytes = DMLCalcBufferTensorSize(t->buf.DataType, t->buf.DimensionCount,
                                                            t->buf.Sizes, t->buf.Strides);
}

const DML_TENSOR_DESC *unit_tensor_set(unit_tensor *t, DML_TENSOR_DATA_TYPE type, UINT rank,
                                       const UINT *sizes, const UINT *strides)
{
    memset(t, 0, sizeof *t);
    memcpy(t->sizes, sizes, rank * sizeof(UINT));
    t->buf.DataType = type;
    t->buf.DimensionCount = rank;
    t->buf.Sizes = t->sizes;
    if (strides) {
        memcpy(t->strides, strides, rank * sizeof(UINT));
        t->buf.Strides = t->strides;
    }
    t->desc.Type = DML_TENSOR_TYPE_BUFFER;
    t->desc.Desc = &t->buf;
    unit_tensor_fit(t);
    return &t->desc;
}

void unit_tensor_set_strides(unit_tensor *t, const UINT *strides)
{
    memcpy(t->strides, strides, t->buf.DimensionCount * sizeof(UINT));
    t->buf.Strides = t->strides;
    unit_tensor_fit(t);
}

void unit_tensor_set_type(unit_tensor *t, DML_TENSOR_DATA_TYPE type)
{
    t->buf.DataType = type;
    unit_tensor_fit(t);
}

void unit_expect_needles(HRESULT hr, HRESULT want, const char *const *needles, int line)
{
    const char *msg = dmlcl_last_error();
    cr_expect_eq(hr, want, "line %d: %s, expected %s (%s)", line, dmlcl_hresult_name(hr),
                 dmlcl_hresult_name(want), msg);
    for (; *needles; ++needles)
        cr_expect(strstr(msg, *needles), "line %d: \"%s\" not in \"%s\"", line, *needles, msg);
}

void unit_expect_error(HRESULT got, HRESULT want, const char *a, const char *b)
{
    const char *msg = dmlcl_last_error();
    cr_expect_eq(got, want, "HRESULT 0x%08x, expected 0x%08x (%s)", (unsigned)got, (unsigned)want,
                 msg);
    cr_expect(strstr(msg, a) != NULL, "message \"%s\" lacks \"%s\"", msg, a);
    cr_expect(b == NULL || strstr(msg, b) != NULL, "message \"%s\" lacks \"%s\"", msg, b);
}

char *unit_tuning_set(const char *value)
{
    const char *now = getenv("DMLCL_TUNING");
    char *saved = now ? strdup(now) : NULL;
    setenv("DMLCL_TUNING", value, 1);
    return saved;
}

void unit_tuning_restore(char *saved)
{
    if (saved) {
        setenv("DMLCL_TUNING", saved, 1);
        free(saved);
    } else {
        unsetenv("DMLCL_TUNING");
    }
}
