/* SPDX-License-Identifier: MIT */
/*
 * harness.c: device, memory images, data and comparison for the device tests.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "harness.h"

/* ---- Device ------------------------------------------------------------------ */

static dmlcl_device *the_device;
static cl_command_queue the_side_queue;

void ops_device_release(void)
{
    if (the_side_queue)
        clReleaseCommandQueue(the_side_queue);
    dmlcl_device_release(the_device);
    the_side_queue = NULL;
    the_device = NULL;
}

dmlcl_device *ops_device(void)
{
    if (!the_device) {
        const struct criterion_suite *suite = criterion_current_suite;
        void (*fini)(void) = NULL;
        /* Without the suite's .fini the device would outlive the test (see harness.h).
         * Criterion's workers may hold the suite's data unaligned: copied, not read. */
        if (suite->data)
            memcpy(&fini,
                   (const char *)suite->data + offsetof(struct criterion_test_extra_data, fini),
                   sizeof fini);
        cr_assert(fini == ops_device_release,
                  "suite %s uses the device: declare OPS_DEVICE_SUITE(%s)", suite->name,
                  suite->name);
        HRESULT hr = dmlcl_device_create(&the_device);
        cr_assert(SUCCEEDED(hr) && the_device, "dmlcl_device_create: %s: %s",
                  dmlcl_hresult_name(hr), dmlcl_last_error());
    }
    return the_device;
}

/* A second in-order queue on the same context and device. */
static cl_command_queue side_queue(void)
{
    if (!the_side_queue) {
        cl_int err;
        dmlcl_device *dev = ops_device();
        the_side_queue =
            clCreateCommandQueue(dmlcl_device_context(dev), dmlcl_device_id(dev), 0, &err);
        cr_assert(err == CL_SUCCESS, "clCreateCommandQueue: %d", err);
    }
    return the_side_queue;
}

#define CL_CHECK(call)                                                     \
    do {                                                                   \
        cl_int err_ = (call);                                              \
        cr_assert(err_ == CL_SUCCESS, "%s: OpenCL error %d", #call, err_); \
    } while (0)

/* ---- Text ------------------------------------------------------------------ */

/* snprintf that appends at *at and never runs past len. */
static void append(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (*at >= len)
        return;
    va_start(ap, fmt);
    n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at = *at + (size_t)n < len ? *at + (size_t)n : len;
}

static void append_dims(char *buf, size_t len, size_t *at, uint32_t rank, const uint32_t *dims)
{
    append(buf, len, at, "{");
    for (uint32_t i = 0; i < rank; ++i)
        append(buf, len, at, i ? ",%" PRIu32 : "%" PRIu32, dims[i]);
    append(buf, len, at, "}");
}

/* Element bytes as a little-endian hex number. */
static void append_element(char *buf, size_t len, size_t *at, const unsigned char *p, size_t n)
{
    append(buf, len, at, "0x");
    for (size_t i = n; i-- > 0;)
        append(buf, len, at, "%02x", p[i]);
}

/* ---- Tensors ------------------------------------------------------------------ */

void ops_tensor_init(ops_tensor *t, const char *name, bool output, DML_TENSOR_DATA_TYPE type,
                     uint32_t rank, const uint32_t *sizes, const uint32_t *strides,
                     uint64_t extra_bytes, uint32_t base_alignment)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    t->output = output;
    t->null_strides = strides == NULL;
    memcpy(t->sizes, sizes, rank * sizeof *sizes);
    if (strides)
        memcpy(t->strides, strides, rank * sizeof *strides);
    else
        ref_packed_strides(rank, sizes, t->strides);
    t->buffer.DataType = type;
    t->buffer.Flags = DML_TENSOR_FLAG_NONE;
    t->buffer.DimensionCount = rank;
    t->buffer.TotalTensorSizeInBytes = ref_buffer_bytes(type, rank, sizes, strides) + extra_bytes;
    t->buffer.GuaranteedBaseOffsetAlignment = base_alignment;
    t->slot = -1;
    ops_tensor_desc(t);
}

const DML_TENSOR_DESC *ops_tensor_desc(ops_tensor *t)
{
    t->buffer.Sizes = t->sizes;
    t->buffer.Strides = t->null_strides ? NULL : t->strides;
    t->desc.Type = DML_TENSOR_TYPE_BUFFER;
    t->desc.Desc = &t->buffer;
    return &t->desc;
}

const char *ops_tensor_describe(const ops_tensor *t, char *buf, size_t len)
{
    size_t at = 0;
    uint32_t rank = t->buffer.DimensionCount;
    append(buf, len, &at, "%s %s ", t->name, ref_type_name(t->buffer.DataType));
    append_dims(buf, len, &at, rank, t->sizes);
    append(buf, len, &at, " strides ");
    if (t->null_strides)
        append(buf, len, &at, "NULL");
    else
        append_dims(buf, len, &at, rank, t->strides);
    append(buf, len, &at, " total %" PRIu64, (uint64_t)t->buffer.TotalTensorSizeInBytes);
    if (t->buffer.GuaranteedBaseOffsetAlignment)
        append(buf, len, &at, " align %u", t->buffer.GuaranteedBaseOffsetAlignment);
    append(buf, len, &at, " @buffer%d+%" PRIu64 " size %" PRIu64, t->slot, t->offset, t->bind_size);
    return buf;
}

/* ---- Layouts ------------------------------------------------------------------ */

const char *ops_layout_name(ops_layout layout)
{
    static const char *const names[OPS_LAYOUT_COUNT] = {
        "null", "packed", "padded", "permuted", "broadcast", "arbitrary",
    };
    return (unsigned)layout < OPS_LAYOUT_COUNT ? names[layout] : "?";
}

ops_layout ops_layout_random(ref_rng *rng, bool output)
{
    return (ops_layout)ref_rng_below(rng, output ? OPS_LAYOUT_BROADCAST : OPS_LAYOUT_COUNT);
}

static uint64_t span_of(uint32_t rank, const uint32_t *sizes, const uint32_t *strides)
{
    uint64_t last = 0;
    for (uint32_t i = 0; i < rank; ++i)
        last += (uint64_t)(sizes[i] - 1) * strides[i];
    return last + 1;
}

/* Innermost first in order[]; each dimension's stride clears the block inside it. */
static void nested_strides(ref_rng *rng, uint32_t rank, const uint32_t *sizes,
                           const uint32_t *order, unsigned gap_percent, uint32_t *strides)
{
    uint64_t running = 1;
    for (uint32_t n = 0; n < rank; ++n) {
        uint32_t d = order[n];
        strides[d] = (uint32_t)running;
        running *= sizes[d];
        if (ref_rng_chance(rng, gap_percent))
            running += ref_rng_range(rng, 1, 5);
    }
}

bool ops_layout_strides(ref_rng *rng, ops_layout layout, uint32_t rank, const uint32_t *sizes,
                        uint32_t *strides)
{
    uint32_t order[REF_MAX_DIMS] = {0};
    for (uint32_t i = 0; i < rank; ++i)
        order[i] = rank - 1 - i;
    switch (layout) {
    case OPS_LAYOUT_NULL: ref_packed_strides(rank, sizes, strides); return false;
    case OPS_LAYOUT_PACKED: ref_packed_strides(rank, sizes, strides); break;
    case OPS_LAYOUT_PADDED: nested_strides(rng, rank, sizes, order, 40, strides); break;
    case OPS_LAYOUT_PERMUTED:
        for (uint32_t i = rank; i > 1; --i) {
            uint32_t j = (uint32_t)ref_rng_below(rng, i), tmp = order[i - 1];
            order[i - 1] = order[j];
            order[j] = tmp;
        }
        nested_strides(rng, rank, sizes, order, 25, strides);
        break;
    case OPS_LAYOUT_BROADCAST:
        nested_strides(rng, rank, sizes, order, 20, strides);
        for (uint32_t i = 0; i < rank; ++i)
            if (ref_rng_chance(rng, 40))
                strides[i] = 0;
        break;
    case OPS_LAYOUT_ARBITRARY:
        for (uint32_t i = 0; i < rank; ++i)
            strides[i] = (uint32_t)ref_rng_below(rng, 2 * (uint64_t)sizes[i] + 4);
        break;
    default: ref_packed_strides(rank, sizes, strides); break;
    }
    /* A size-1 dimension's stride never moves the address. */
    for (uint32_t i = 0; i < rank; ++i)
        if (sizes[i] == 1 && ref_rng_chance(rng, 20))
            strides[i] = (uint32_t)ref_rng_below(rng, 1000);
    if (span_of(rank, sizes, strides) > OPS_MAX_SPAN)
        ref_packed_strides(rank, sizes, strides);
    return true;
}

/* ---- Memory ------------------------------------------------------------------ */

static uint64_t round_up(uint64_t x, uint64_t to)
{
    return (x + to - 1) / to * to;
}

void ops_memory_place(ops_memory *m, ref_rng *rng, ops_tensor *t, bool share)
{
    uint64_t align = 16, total = t->buffer.TotalTensorSizeInBytes;
    if (t->buffer.GuaranteedBaseOffsetAlignment > align)
        align = t->buffer.GuaranteedBaseOffsetAlignment;
    if (!share || m->count == 0) {
        cr_assert(m->count < OPS_MAX_BUFFERS, "too many buffers");
        m->size[m->count++] = 0;
    }
    t->slot = m->count - 1;
    /* At least 16 guard bytes before; the offset is never 0. */
    t->offset = round_up(m->size[t->slot] + 16 + 16 * ref_rng_below(rng, 4), align);
    t->bind_size = total + (ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0);
    m->size[t->slot] = t->offset + t->bind_size + 1 + ref_rng_below(rng, 64);
}

void ops_memory_alloc(ops_memory *m, ref_rng *rng)
{
    cl_context ctx = dmlcl_device_context(ops_device());
    for (int b = 0; b < m->count; ++b) {
        cl_int err;
        m->init[b] = malloc(m->size[b]);
        m->expect[b] = malloc(m->size[b]);
        m->got[b] = malloc(m->size[b]);
        cr_assert(m->init[b] && m->expect[b] && m->got[b], "out of host memory");
        ref_rng_bytes(rng, m->init[b], m->size[b]);
        m->mem[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, m->size[b], NULL, &err);
        cr_assert(err == CL_SUCCESS, "clCreateBuffer(%" PRIu64 "): %d", m->size[b], err);
    }
}

void ops_memory_release(ops_memory *m)
{
    for (int b = 0; b < m->count; ++b) {
        free(m->init[b]);
        free(m->expect[b]);
        free(m->got[b]);
        if (m->mem[b])
            clReleaseMemObject(m->mem[b]);
    }
    memset(m, 0, sizeof *m);
}

unsigned char *ops_ptr(const ops_memory *m, ops_image image, const ops_tensor *t)
{
    unsigned char *base = image == OPS_INIT     ? m->init[t->slot]
                          : image == OPS_EXPECT ? m->expect[t->slot]
                                                : m->got[t->slot];
    return base + t->offset;
}

ref_tensor ops_view(const ops_memory *m, ops_image image, const ops_tensor *t)
{
    return ref_tensor_view(t->buffer.DataType, t->buffer.DimensionCount, t->sizes, t->strides,
                           ops_ptr(m, image, t));
}

void ops_memory_snapshot(ops_memory *m)
{
    for (int b = 0; b < m->count; ++b)
        memcpy(m->expect[b], m->init[b], m->size[b]);
}

void ops_memory_unary(ops_memory *m, ref_rng *rng, ops_tensor *input, ops_tensor *output,
                      bool shared, DML_TENSOR_DATA_TYPE type)
{
    memset(m, 0, sizeof *m);
    ops_memory_place(m, rng, input, false);
    ops_memory_place(m, rng, output, shared);
    ops_memory_alloc(m, rng);
    uint64_t slots = input->buffer.TotalTensorSizeInBytes / ref_type_size(type);
    ops_fill_distinct(rng, type, ops_ptr(m, OPS_INIT, input), slots);
    ops_memory_snapshot(m);
}

void ops_poison_output(ops_memory *m, const ops_tensor *t)
{
    ref_tensor init = ops_view(m, OPS_INIT, t), expect = ops_view(m, OPS_EXPECT, t);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char element[16];
    if (ref_element_count(init.rank, init.sizes) == 0)
        return; /* an empty tensor has no element to poison */
    do {
        ref_get(&expect, coord, element);
        for (size_t i = 0; i < expect.elem_size; ++i)
            element[i] = (unsigned char)~element[i];
        ref_put(&init, coord, element);
    } while (ref_next_coord(init.rank, init.sizes, coord));
}

/* ---- Data ------------------------------------------------------------------- */

static const uint16_t specials16[] = {0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7D01,
                                      0xFE5A, 0x0001, 0x83FF, 0x0000, 0x3C00};
static const uint32_t specials32[] = {0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00001u,
                                      0x7F800001u, 0xFFC12345u, 0x00000001u, 0x807FFFFFu,
                                      0x00000000u, 0x3F800000u};
static const uint64_t specials64[] = {
    0x8000000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x7FF8000000000001ull,
    0x7FF0000000000001ull, 0xFFF8123456789ABCull, 0x0000000000000001ull, 0x800FFFFFFFFFFFFFull,
    0x0000000000000000ull, 0x3FF0000000000000ull};

void ops_fill_distinct(ref_rng *rng, DML_TENSOR_DATA_TYPE type, void *dst, uint64_t count)
{
    const size_t w = ref_type_size(type);
    const uint64_t salt = ref_rng_next(rng), mult = ref_rng_next(rng) | 1;
    unsigned char *p = dst;
    /* An odd multiplier is a bijection modulo 2^(8w): distinct below 2^(8w). */
    for (uint64_t s = 0; s < count; ++s) {
        uint64_t v = salt + s * mult;
        memcpy(p + s * w, &v, w < sizeof v ? w : sizeof v);
        if (w > sizeof v)
            memcpy(p + s * w + sizeof v, &v, w - sizeof v);
    }
    if (!ref_type_is_float(type))
        return;
    for (uint64_t s = 0; s < count; ++s) {
        if (!ref_rng_chance(rng, 6))
            continue;
        size_t pick = (size_t)ref_rng_below(rng, 10);
        if (w == 2)
            memcpy(p + s * w, &specials16[pick], w);
        else if (w == 4)
            memcpy(p + s * w, &specials32[pick], w);
        else if (w == 8)
            memcpy(p + s * w, &specials64[pick], w);
    }
}

/* An index value that is out of range for axis_size (after wrapping negatives). */
static void invalid_index(ref_rng *rng, bool is_signed, size_t w, uint32_t n, int64_t *s,
                          uint64_t *u)
{
    const uint64_t umax = w == 4 ? UINT32_MAX : UINT64_MAX;
    const int64_t smax = w == 4 ? INT32_MAX : INT64_MAX, smin = w == 4 ? INT32_MIN : INT64_MIN;
    switch (ref_rng_below(rng, 8)) {
    case 0: *s = (int64_t)n + ref_rng_range(rng, 0, 3); break;
    case 1: *s = (int64_t)n + ref_rng_range(rng, 0, 100000); break;
    case 2: *s = smax - ref_rng_range(rng, 0, 2); break;
    case 3: *s = -(int64_t)n - 1 - ref_rng_range(rng, 0, 3); break;
    case 4: *s = smin + ref_rng_range(rng, 0, n); break;
    /* Looks valid when a 64-bit index is truncated to 32 bits. */
    case 5: *s = w == 8 ? ((int64_t)1 << 32) + ref_rng_range(rng, 0, n - 1) : smax; break;
    case 6: *s = w == 8 ? -((int64_t)1 << 32) + ref_rng_range(rng, 0, n - 1) : smin; break;
    default: *s = -(int64_t)ref_rng_range(rng, n + 1, (int64_t)n + 1000); break;
    }
    if (is_signed)
        return;
    /* Unsigned: the same bits, plus the very top of the range. */
    *u = (uint64_t)*s & umax;
    if (*u < n)
        *u = umax - ref_rng_below(rng, 3);
    if (ref_rng_chance(rng, 20))
        *u = (umax >> 1) + 1 + ref_rng_below(rng, n); /* negative if read as signed */
}

void ops_fill_indices(ref_rng *rng, DML_TENSOR_DATA_TYPE type, void *dst, uint64_t count,
                      uint32_t axis_size, unsigned negative_percent, unsigned invalid_percent)
{
    const size_t w = ref_type_size(type);
    const bool is_signed = ref_type_is_signed_int(type);
    unsigned char *p = dst;
    for (uint64_t i = 0; i < count; ++i) {
        int64_t s = (int64_t)ref_rng_below(rng, axis_size);
        uint64_t u;
        if (ref_rng_chance(rng, invalid_percent)) {
            invalid_index(rng, is_signed, w, axis_size, &s, &u);
        } else {
            if (is_signed && ref_rng_chance(rng, negative_percent))
                s -= axis_size;
            u = (uint64_t)s;
        }
        if (is_signed)
            u = (uint64_t)s;
        memcpy(p + i * w, &u, w); /* little-endian: the low w bytes */
    }
}

/* ---- Running ------------------------------------------------------------------ */

const char *ops_submit_name(ops_submit submit)
{
    static const char *const names[OPS_SUBMIT_COUNT] = {"default", "wait-list", "side-queue"};
    return (unsigned)submit < OPS_SUBMIT_COUNT ? names[submit] : "?";
}

static void binding_of(const ops_memory *m, const ops_tensor *t, DML_BUFFER_BINDING *b,
                       DML_BINDING_DESC *d)
{
    if (t == NULL) { /* an absent optional tensor */
        d->Type = DML_BINDING_TYPE_NONE;
        d->Desc = NULL;
        return;
    }
    b->Buffer = m->mem[t->slot];
    b->Offset = t->offset;
    b->SizeInBytes = t->bind_size;
    d->Type = DML_BINDING_TYPE_BUFFER;
    d->Desc = b;
}

HRESULT ops_bind(dmlcl_binding_table *table, const ops_memory *m, ops_tensor *const *inputs,
                 UINT input_count, ops_tensor *const *outputs, UINT output_count)
{
    DML_BUFFER_BINDING bb[OPS_MAX_TENSORS];
    DML_BINDING_DESC bd[OPS_MAX_TENSORS];
    HRESULT hr;
    for (UINT i = 0; i < input_count; ++i)
        binding_of(m, inputs[i], &bb[i], &bd[i]);
    hr = dmlcl_binding_table_bind_inputs(table, input_count, bd);
    if (FAILED(hr))
        return hr;
    for (UINT i = 0; i < output_count; ++i)
        binding_of(m, outputs[i], &bb[i], &bd[i]);
    return dmlcl_binding_table_bind_outputs(table, output_count, bd);
}

void ops_upload(ops_memory *m)
{
    cl_command_queue q = dmlcl_device_queue(ops_device());
    for (int b = 0; b < m->count; ++b)
        CL_CHECK(
            clEnqueueWriteBuffer(q, m->mem[b], CL_TRUE, 0, m->size[b], m->init[b], 0, NULL, NULL));
}

void ops_download(ops_memory *m)
{
    cl_command_queue q = dmlcl_device_queue(ops_device());
    for (int b = 0; b < m->count; ++b)
        CL_CHECK(
            clEnqueueReadBuffer(q, m->mem[b], CL_TRUE, 0, m->size[b], m->got[b], 0, NULL, NULL));
}

/* Uploads per the submit mode, dispatches, waits; returns the dispatch's HRESULT. */
static HRESULT submit_dispatch(dmlcl_binding_table *table, ops_memory *m, ops_submit submit,
                               const char **stage)
{
    cl_event writes[OPS_MAX_BUFFERS], done = NULL;
    cl_command_queue side = side_queue();
    HRESULT hr;

    *stage = "dmlcl_binding_table_dispatch";
    switch (submit) {
    case OPS_SUBMIT_WAIT_LIST:
        for (int b = 0; b < m->count; ++b)
            CL_CHECK(clEnqueueWriteBuffer(side, m->mem[b], CL_FALSE, 0, m->size[b], m->init[b], 0,
                                          NULL, &writes[b]));
        CL_CHECK(clFlush(side));
        hr = dmlcl_binding_table_dispatch(table, NULL, (cl_uint)m->count, writes, &done);
        if (SUCCEEDED(hr))
            CL_CHECK(clWaitForEvents(1, &done));
        CL_CHECK(clFinish(side));
        for (int b = 0; b < m->count; ++b)
            clReleaseEvent(writes[b]);
        break;
    case OPS_SUBMIT_SIDE_QUEUE:
        for (int b = 0; b < m->count; ++b)
            CL_CHECK(clEnqueueWriteBuffer(side, m->mem[b], CL_FALSE, 0, m->size[b], m->init[b], 0,
                                          NULL, NULL));
        hr = dmlcl_binding_table_dispatch(table, side, 0, NULL, NULL);
        CL_CHECK(clFinish(side));
        break;
    default:
        ops_upload(m);
        hr = dmlcl_binding_table_dispatch(table, NULL, 0, NULL, &done);
        if (SUCCEEDED(hr))
            CL_CHECK(clWaitForEvents(1, &done));
        break;
    }
    if (done)
        clReleaseEvent(done);
    return hr;
}

HRESULT ops_run_device(const DML_OPERATOR_DESC *desc, ops_memory *m, ops_tensor *const *inputs,
                       UINT input_count, ops_tensor *const *outputs, UINT output_count,
                       ops_submit submit, const char **stage)
{
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *compiled = NULL;
    dmlcl_binding_table *table = NULL;
    cl_mem temp = NULL;
    HRESULT hr;

    *stage = "dmlcl_operator_create";
    hr = dmlcl_operator_create(ops_device(), desc, &op);
    if (FAILED(hr))
        goto done;
    *stage = "dmlcl_operator_compile";
    hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled);
    if (FAILED(hr))
        goto done;
    *stage = "dmlcl_binding_table_create";
    hr = dmlcl_binding_table_create(compiled, &table);
    if (FAILED(hr))
        goto done;
    *stage = "dmlcl_binding_table_bind_*";
    hr = ops_bind(table, m, inputs, input_count, outputs, output_count);
    if (FAILED(hr))
        goto done;
    /* The temporary resource where the operator asks for one (a split reduction's or a split
     * product's slices), poisoned with 0xFF bytes (NaN, -1): a step that read scratch nobody
     * wrote would show. Written from the host, not filled: after clEnqueueFillBuffer Oclgrind's
     * uninitialised-value check reports a later launch's reads of what an earlier launch wrote
     * there (a two-kernel program reproduces it; not after a write, nor with no fill). */
    UINT64 temp_bytes = dmlcl_compiled_operator_binding_properties(compiled).TemporaryResourceSize;
    if (temp_bytes) {
        cl_int err;
        temp = clCreateBuffer(dmlcl_device_context(ops_device()), CL_MEM_READ_WRITE,
                              (size_t)temp_bytes, NULL, &err);
        cr_assert(err == CL_SUCCESS, "clCreateBuffer(%" PRIu64 "): %d", (uint64_t)temp_bytes, err);
        unsigned char *poison = malloc((size_t)temp_bytes);
        cr_assert(poison, "out of host memory");
        memset(poison, 0xFF, (size_t)temp_bytes);
        err = clEnqueueWriteBuffer(dmlcl_device_queue(ops_device()), temp, CL_TRUE, 0,
                                   (size_t)temp_bytes, poison, 0, NULL, NULL);
        free(poison);
        cr_assert(err == CL_SUCCESS, "poisoning the temporary resource: %d", err);
        DML_BUFFER_BINDING tb = {(ID3D12Resource *)temp, 0, temp_bytes};
        DML_BINDING_DESC td = {DML_BINDING_TYPE_BUFFER, &tb};
        *stage = "dmlcl_binding_table_bind_temporary";
        hr = dmlcl_binding_table_bind_temporary(table, &td);
        if (FAILED(hr))
            goto done;
    }
    hr = submit_dispatch(table, m, submit, stage);
    if (FAILED(hr))
        goto done;
    *stage = "dmlcl_binding_table_status";
    hr = dmlcl_binding_table_status(table);
    if (FAILED(hr))
        goto done;
    ops_download(m);
done:
    dmlcl_binding_table_release(table);
    if (temp)
        clReleaseMemObject(temp);
    dmlcl_compiled_operator_release(compiled);
    dmlcl_operator_release(op);
    return hr;
}

HRESULT ops_run_host(const DML_OPERATOR_DESC *desc, ops_memory *m, ops_tensor *const *inputs,
                     UINT input_count, ops_tensor *const *outputs, UINT output_count,
                     const char **stage)
{
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *compiled = NULL;
    dmlcl_host_tensor in[OPS_MAX_TENSORS] = {{0}}, out[OPS_MAX_TENSORS] = {{0}};
    HRESULT hr;

    for (int b = 0; b < m->count; ++b)
        memcpy(m->got[b], m->init[b], m->size[b]);
    for (UINT i = 0; i < input_count; ++i) {
        in[i].size = inputs[i]->bind_size;
        in[i].data = malloc(in[i].size);
        cr_assert(in[i].data, "out of host memory");
        memcpy(in[i].data, ops_ptr(m, OPS_INIT, inputs[i]), in[i].size);
    }
    for (UINT i = 0; i < output_count; ++i) {
        out[i].size = outputs[i]->bind_size;
        out[i].data = malloc(out[i].size);
        cr_assert(out[i].data, "out of host memory");
        memcpy(out[i].data, ops_ptr(m, OPS_INIT, outputs[i]), out[i].size);
    }
    *stage = "dmlcl_operator_create";
    hr = dmlcl_operator_create(ops_device(), desc, &op);
    if (FAILED(hr))
        goto done;
    *stage = "dmlcl_operator_compile";
    hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled);
    if (FAILED(hr))
        goto done;
    *stage = "dmlcl_compiled_operator_execute";
    hr = dmlcl_compiled_operator_execute(compiled, input_count, in, output_count, out);
    if (FAILED(hr))
        goto done;
    /* Inputs go back too: execute must not have written them. */
    for (UINT i = 0; i < input_count; ++i)
        memcpy(ops_ptr(m, OPS_GOT, inputs[i]), in[i].data, in[i].size);
    for (UINT i = 0; i < output_count; ++i)
        memcpy(ops_ptr(m, OPS_GOT, outputs[i]), out[i].data, out[i].size);
done:
    for (UINT i = 0; i < OPS_MAX_TENSORS; ++i) {
        free(in[i].data);
        free(out[i].data);
    }
    dmlcl_compiled_operator_release(compiled);
    dmlcl_operator_release(op);
    return hr;
}

/* ---- Comparison ---------------------------------------------------------------- */

#define OPS_REPORT_MAX 4

/* Names what a byte of a buffer is: which binding's guard, padding or tail. */
static void append_byte_role(char *buf, size_t len, size_t *at, ops_tensor *const *tensors,
                             int count, int slot, uint64_t pos)
{
    for (int i = 0; i < count; ++i) {
        const ops_tensor *t = tensors[i];
        uint64_t total = t->buffer.TotalTensorSizeInBytes;
        if (t->slot != slot)
            continue;
        if (pos >= t->offset && pos < t->offset + total) {
            append(buf, len, at, "%s byte %" PRIu64 " (%s)", t->name, pos - t->offset,
                   t->output ? "padding inside TotalTensorSizeInBytes" : "input data");
            return;
        }
        if (pos >= t->offset + total && pos < t->offset + t->bind_size) {
            append(buf, len, at, "%s bound tail byte %" PRIu64, t->name, pos - t->offset);
            return;
        }
    }
    append(buf, len, at, "guard byte");
}

/* Marks the bytes of an output's logical elements in mask (per buffer). */
static void mark_elements(const ops_memory *m, const ops_tensor *t, unsigned char *mask)
{
    ref_tensor v = ops_view(m, OPS_EXPECT, t);
    uint32_t coord[REF_MAX_DIMS] = {0};
    if (ref_element_count(v.rank, v.sizes) == 0)
        return;
    do {
        uint64_t at = t->offset + (uint64_t)ref_offset(&v, coord) * v.elem_size;
        memset(mask + at, 1, v.elem_size);
    } while (ref_next_coord(v.rank, v.sizes, coord));
}

static uint64_t compare_elements(const ops_memory *m, const ops_tensor *t, char *msg, size_t len,
                                 size_t *at, uint64_t *reported)
{
    ref_tensor expect = ops_view(m, OPS_EXPECT, t), got = ops_view(m, OPS_GOT, t);
    uint32_t coord[REF_MAX_DIMS] = {0};
    unsigned char e[16], g[16];
    uint64_t bad = 0, total = ref_element_count(expect.rank, expect.sizes);
    if (total == 0)
        return 0;
    do {
        ref_get(&expect, coord, e);
        ref_get(&got, coord, g);
        if (memcmp(e, g, expect.elem_size) == 0)
            continue;
        if (++bad, (*reported)++ < OPS_REPORT_MAX) {
            append(msg, len, at, "\n  %s", t->name);
            append_dims(msg, len, at, expect.rank, coord);
            append(msg, len, at, ": expected ");
            append_element(msg, len, at, e, expect.elem_size);
            append(msg, len, at, ", got ");
            append_element(msg, len, at, g, expect.elem_size);
        }
    } while (ref_next_coord(expect.rank, expect.sizes, coord));
    if (bad)
        append(msg, len, at, "\n  %s: %" PRIu64 " of %" PRIu64 " elements differ", t->name, bad,
               total);
    return bad;
}

uint64_t ops_compare(const ops_memory *m, ops_tensor *const *tensors, int count, char *msg,
                     size_t len)
{
    uint64_t bad = 0, reported = 0;
    size_t at = 0;
    msg[0] = '\0';
    for (int i = 0; i < count; ++i)
        if (tensors[i]->output)
            bad += compare_elements(m, tensors[i], msg, len, &at, &reported);
    for (int b = 0; b < m->count; ++b) {
        unsigned char *mask;
        uint64_t stray = 0;
        if (memcmp(m->expect[b], m->got[b], m->size[b]) == 0)
            continue;
        mask = calloc(m->size[b], 1);
        cr_assert(mask, "out of host memory");
        for (int i = 0; i < count; ++i)
            if (tensors[i]->output && tensors[i]->slot == b)
                mark_elements(m, tensors[i], mask);
        for (uint64_t pos = 0; pos < m->size[b]; ++pos) {
            if (mask[pos] || m->expect[b][pos] == m->got[b][pos])
                continue;
            if (++stray, reported++ < OPS_REPORT_MAX) {
                append(msg, len, &at, "\n  buffer%d+%" PRIu64 ", ", b, pos);
                append_byte_role(msg, len, &at, tensors, count, b, pos);
                append(msg, len, &at, ": expected 0x%02x (untouched), got 0x%02x",
                       m->expect[b][pos], m->got[b][pos]);
            }
        }
        if (stray)
            append(msg, len, &at,
                   "\n  buffer%d: %" PRIu64 " bytes outside the output elements changed", b, stray);
        bad += stray;
        free(mask);
    }
    return bad;
}

/* ---- Random shapes and tensors ------------------------------------------------------ */

void ops_random_sizes(ref_rng *rng, uint32_t rank, uint32_t *sizes, uint64_t max_elements)
{
    uint32_t cap = rank <= 1 ? 300 : rank == 2 ? 40 : rank <= 4 ? 10 : 4;
    for (uint32_t i = 0; i < rank; ++i)
        sizes[i] = ref_rng_chance(rng, 20) ? 1 : 1 + (uint32_t)ref_rng_below(rng, cap);
    while (ref_element_count(rank, sizes) > max_elements) {
        uint32_t *largest = &sizes[0];
        for (uint32_t i = 1; i < rank; ++i)
            if (sizes[i] > *largest)
                largest = &sizes[i];
        *largest = (*largest + 1) / 2;
    }
}

void ops_random_tensor(ops_tensor *t, ref_rng *rng, const char *name, bool output,
                       DML_TENSOR_DATA_TYPE type, uint32_t rank, const uint32_t *sizes,
                       ops_layout *layout)
{
    uint32_t strides[REF_MAX_DIMS];
    uint64_t extra = ref_rng_chance(rng, 30) ? 4 * ref_rng_below(rng, 8) : 0;
    *layout = ops_layout_random(rng, output);
    bool given = ops_layout_strides(rng, *layout, rank, sizes, strides);
    ops_tensor_init(t, name, output, type, rank, sizes, given ? strides : NULL, extra,
                    ref_rng_chance(rng, 20) ? 64 : 0);
}

char *ops_tuning_set(const char *value)
{
    const char *now = getenv("DMLCL_TUNING");
    char *saved = now ? strdup(now) : NULL;
    setenv("DMLCL_TUNING", value, 1);
    return saved;
}

void ops_tuning_restore(char *saved)
{
    if (saved) {
        setenv("DMLCL_TUNING", saved, 1);
        free(saved);
    } else {
        unsetenv("DMLCL_TUNING");
    }
}

void ops_execute_on_host(const char *what, const DML_OPERATOR_DESC *desc, UINT n_in,
                         const dmlcl_host_tensor *ins, dmlcl_host_tensor out)
{
    dmlcl_operator *o = NULL;
    dmlcl_compiled_operator *c = NULL;
    cr_assert_eq(dmlcl_operator_create(ops_device(), desc, &o), S_OK, "%s: %s", what,
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_operator_compile(o, DML_EXECUTION_FLAG_NONE, &c), S_OK, "%s: %s", what,
                 dmlcl_last_error());
    cr_assert_eq(dmlcl_compiled_operator_execute(c, n_in, ins, 1, &out), S_OK, "%s: %s", what,
                 dmlcl_last_error());
    dmlcl_compiled_operator_release(c);
    dmlcl_operator_release(o);
}
