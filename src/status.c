/* SPDX-License-Identifier: MIT */
/*
 * dmlcl_binding_table_status: the ERROR out-of-range policy's report. The
 * indexed kernel records the smallest offending index position in the
 * table's status buffer; the dispatch reads it back without blocking, and
 * this call waits for that read and, when an index was out of range, reads
 * the offending value from the bound indices to name it.
 */
#include <stdio.h>
#include <string.h>

#include "runtime.h"

/* ---- Status of the last dispatch (ERROR policy) --------------------------------------- */

static HRESULT read_index(dmlcl_binding_table *t, uint64_t pos, uint64_t *coords, int64_t *value,
                          bool *is_signed)
{
    const dmli_op_state *st = &t->compiled->op->st;
    const dmli_tensor *ix = &st->inputs[st->index_input];
    uint64_t rest = pos;
    int64_t at = 0;
    for (uint32_t d = ix->rank; d-- > 0;) {
        coords[d] = rest % ix->sizes[d];
        rest /= ix->sizes[d];
        at += (int64_t)coords[d] * ix->strides[d];
    }
    unsigned char raw[8] = {0};
    const DML_BUFFER_BINDING *b = &t->inputs[st->index_input];
    cl_int err = clEnqueueReadBuffer(t->status_queue, (cl_mem)b->Buffer, CL_TRUE,
                                     b->Offset + (uint64_t)at * ix->elem_bytes, ix->elem_bytes, raw,
                                     0, NULL, NULL);
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clEnqueueReadBuffer (offending index)");
    *is_signed = dmli_index_type_signed(st->plan.idx_type);
    uint64_t bits = 0;
    memcpy(&bits, raw, ix->elem_bytes); /* little-endian, as OpenCL devices */
    unsigned width = 8 * ix->elem_bytes;
    if (*is_signed && width < 64 && (bits >> (width - 1)) & 1)
        bits |= ~(uint64_t)0 << width;
    *value = (int64_t)bits;
    return S_OK;
}

HRESULT dmlcl_binding_table_status(dmlcl_binding_table *t)
{
    DMLI_NULL_IF(!t, "status: the binding table (NULL) is required");
    if (!t->status_read)
        return S_OK;
    clFlush(t->status_queue); /* the caller may not have flushed its queue */
    cl_int err = clWaitForEvents(1, &t->status_read);
    clReleaseEvent(t->status_read);
    t->status_read = NULL;
    if (err != CL_SUCCESS)
        return dmli_fail_cl(err, "clWaitForEvents (dispatch)");
    if (t->status_host == UINT32_MAX)
        return S_OK;
    const dmli_op_state *st = &t->compiled->op->st;
    const dmli_plan *p = &st->plan;
    uint64_t coords[DMLI_MAX_RANK];
    int64_t value = 0;
    bool is_signed = false;
    DMLI_TRY(read_index(t, t->status_host, coords, &value, &is_signed));
    int k = p->components > 1 && p->comp_pos_stride > 0
                ? (int)((t->status_host / (uint64_t)p->comp_pos_stride) % (uint64_t)p->components)
                : 0;
    int64_t n = p->axis_size[k];
    char where[DMLI_DIMS_BUF], val[32];
    dmli_format_dims(where, sizeof where, st->inputs[st->index_input].rank, coords);
    snprintf(val, sizeof val, is_signed ? "%lld" : "%llu", (long long)value);
    return dmli_fail(DMLCL_E_INDEX_OUT_OF_RANGE,
                     "%s: %s element %u (coordinates %s) is %s, outside [%lld, %lld] for an axis "
                     "of size %lld",
                     t->compiled->op->cls->name, st->input_names[st->index_input],
                     (unsigned)t->status_host, where, val,
                     (long long)(p->wrap_negative && is_signed ? -n : 0), (long long)(n - 1),
                     (long long)n);
}
