/* SPDX-License-Identifier: MIT */
/*
 * The error channel: thread-local messages, the log callback, the version,
 * and E_POINTER (never a crash) for NULL arguments to the runtime calls.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dmlcl/dmlcl.h"

/* A GATHER with Axis 5 on 1-D tensors: E_INVALIDARG naming "Axis". */
typedef struct bad_gather {
    UINT sizes[1];
    DML_BUFFER_TENSOR_DESC buf;
    DML_TENSOR_DESC tensor;
    DML_GATHER_OPERATOR_DESC gather;
    DML_OPERATOR_DESC op;
} bad_gather;

static void bad_gather_init(bad_gather *b, UINT axis)
{
    memset(b, 0, sizeof *b);
    b->sizes[0] = 4;
    b->buf.DataType = DML_TENSOR_DATA_TYPE_UINT32; /* a valid data and index type */
    b->buf.DimensionCount = 1;
    b->buf.Sizes = b->sizes;
    b->buf.TotalTensorSizeInBytes = 16;
    b->tensor.Type = DML_TENSOR_TYPE_BUFFER;
    b->tensor.Desc = &b->buf;
    b->gather.InputTensor = &b->tensor;
    b->gather.IndicesTensor = &b->tensor;
    b->gather.OutputTensor = &b->tensor;
    b->gather.Axis = axis;
    b->gather.IndexDimensions = 1;
    b->op.Type = DML_OPERATOR_GATHER;
    b->op.Desc = &b->gather;
}

static HRESULT create_gather(UINT axis)
{
    bad_gather b;
    bad_gather_init(&b, axis);
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &b.op, &op);
    if (op)
        dmlcl_operator_release(op);
    return hr;
}

/* ---- Thread-local messages ---------------------------------------------------------- */

typedef struct thread_report {
    char before[256];
    HRESULT hr;
    char after[256];
} thread_report;

static void *fail_on_other_thread(void *arg)
{
    thread_report *r = arg;
    snprintf(r->before, sizeof r->before, "%s", dmlcl_last_error());
    dmlcl_operator *op = NULL;
    r->hr = dmlcl_operator_create(NULL, NULL, &op);
    snprintf(r->after, sizeof r->after, "%s", dmlcl_last_error());
    return NULL;
}

Test(errors, last_error_is_thread_local)
{
    cr_assert_eq(create_gather(5), E_INVALIDARG, "%s", dmlcl_last_error());
    char mine[1024];
    snprintf(mine, sizeof mine, "%s", dmlcl_last_error());
    cr_assert(strstr(mine, "Axis") != NULL, "%s", mine);

    thread_report r;
    memset(&r, 0, sizeof r);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, fail_on_other_thread, &r), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);

    cr_expect_str_eq(r.before, "", "a new thread starts with no message, got \"%s\"", r.before);
    cr_expect_eq(r.hr, E_POINTER);
    cr_expect_str_neq(r.after, "", "the other thread's failure has a message");
    cr_expect_str_neq(r.after, mine);
    cr_expect_str_eq(dmlcl_last_error(), mine, "this thread's message changed to \"%s\"",
                     dmlcl_last_error());
}

Test(errors, success_keeps_the_last_failure)
{
    cr_assert_eq(create_gather(5), E_INVALIDARG);
    char before[1024];
    snprintf(before, sizeof before, "%s", dmlcl_last_error());
    cr_assert_eq(create_gather(0), S_OK, "%s", dmlcl_last_error());
    cr_expect_str_eq(dmlcl_last_error(), before);
}

Test(errors, newest_failure_wins)
{
    cr_assert_eq(create_gather(5), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "(5)") != NULL, "%s", dmlcl_last_error());
    cr_assert_eq(create_gather(7), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "(7)") != NULL, "%s", dmlcl_last_error());
    cr_expect(strstr(dmlcl_last_error(), "(5)") == NULL, "%s", dmlcl_last_error());
}

/* ---- Log callback ------------------------------------------------------------------- */

typedef struct log_record {
    int calls;
    HRESULT hr;
    char message[1024];
} log_record;

static void record_log(void *user, HRESULT hr, const char *message)
{
    log_record *r = user;
    r->calls++;
    r->hr = hr;
    snprintf(r->message, sizeof r->message, "%s", message ? message : "(null)");
}

Test(errors, log_callback_gets_hresult_and_message)
{
    log_record r;
    memset(&r, 0, sizeof r);
    dmlcl_set_log_callback(record_log, &r);

    cr_assert_eq(create_gather(5), E_INVALIDARG);
    cr_expect_eq(r.calls, 1);
    cr_expect_eq(r.hr, E_INVALIDARG);
    cr_expect_str_eq(r.message, dmlcl_last_error());
    cr_expect(strstr(r.message, "Axis") != NULL, "%s", r.message);

    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, NULL, &op), E_POINTER);
    cr_expect_eq(r.calls, 2);
    cr_expect_eq(r.hr, E_POINTER);
    cr_expect_str_eq(r.message, dmlcl_last_error());

    /* Successes are not logged. */
    cr_assert_eq(create_gather(0), S_OK);
    cr_expect_eq(r.calls, 2);

    dmlcl_set_log_callback(NULL, NULL);
    cr_assert_eq(create_gather(5), E_INVALIDARG);
    cr_expect_eq(r.calls, 2, "a cleared callback must not be called");
}

/* ---- Version ------------------------------------------------------------------------ */

Test(errors, version)
{
    cr_expect_eq(dmlcl_version(), (uint32_t)DMLCL_VERSION_HEX);
    cr_expect_eq(DMLCL_VERSION_HEX,
                 (DMLCL_VERSION_MAJOR << 16) | (DMLCL_VERSION_MINOR << 8) | DMLCL_VERSION_PATCH);
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", DMLCL_VERSION_MAJOR, DMLCL_VERSION_MINOR,
             DMLCL_VERSION_PATCH);
    cr_expect_str_eq(dmlcl_version_string(), expected);
}

/* ---- NULL arguments ------------------------------------------------------------------ */

#define EXPECT_POINTER(call)                                                    \
    do {                                                                        \
        HRESULT hr_ = (call);                                                   \
        cr_expect_eq(hr_, E_POINTER, "%s: expected E_POINTER, got %s", #call,   \
                     dmlcl_hresult_name(hr_));                                  \
        if (hr_ == E_POINTER)                                                   \
            cr_expect_str_neq(dmlcl_last_error(), "", "%s: no message", #call); \
    } while (0)

Test(errors, null_device_arguments)
{
    EXPECT_POINTER(dmlcl_device_create(NULL));
    EXPECT_POINTER(dmlcl_device_create_from_spec(NULL, NULL));
    DML_FEATURE_DATA_FEATURE_LEVELS levels;
    EXPECT_POINTER(dmlcl_device_check_feature_support(NULL, DML_FEATURE_FEATURE_LEVELS, 0, NULL,
                                                      sizeof levels, &levels));
}

Test(errors, null_operator_arguments)
{
    dmlcl_operator *op = NULL;
    EXPECT_POINTER(dmlcl_operator_create(NULL, NULL, &op));
    bad_gather b;
    bad_gather_init(&b, 0);
    EXPECT_POINTER(dmlcl_operator_create(NULL, &b.op, NULL));
}

Test(errors, null_compile_arguments)
{
    dmlcl_compiled_operator *compiled = NULL;
    EXPECT_POINTER(dmlcl_operator_compile(NULL, DML_EXECUTION_FLAG_NONE, &compiled));
    cr_expect_null(compiled);

    bad_gather b;
    bad_gather_init(&b, 0);
    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &b.op, &op), S_OK, "%s", dmlcl_last_error());
    EXPECT_POINTER(dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, NULL));
    dmlcl_operator_release(op);
}

/* A host-only operator validates and plans, but cannot be compiled. */
Test(errors, host_only_operator_does_not_compile)
{
    bad_gather b;
    bad_gather_init(&b, 0);
    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &b.op, &op), S_OK, "%s", dmlcl_last_error());
    dmlcl_compiled_operator *compiled = NULL;
    HRESULT hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &compiled);
    cr_expect(FAILED(hr), "compiling a device-less operator must fail, got %s",
              dmlcl_hresult_name(hr));
    cr_expect_null(compiled);
    cr_expect_str_neq(dmlcl_last_error(), "");
    if (compiled)
        dmlcl_compiled_operator_release(compiled);
    dmlcl_operator_release(op);
}

Test(errors, null_binding_table_arguments)
{
    dmlcl_binding_table *table = NULL;
    EXPECT_POINTER(dmlcl_binding_table_create(NULL, &table));
    cr_expect_null(table);
    EXPECT_POINTER(dmlcl_binding_table_create(NULL, NULL));

    DML_BINDING_DESC none = {DML_BINDING_TYPE_NONE, NULL};
    EXPECT_POINTER(dmlcl_binding_table_bind_inputs(NULL, 1, &none));
    EXPECT_POINTER(dmlcl_binding_table_bind_inputs(NULL, 0, NULL));
    EXPECT_POINTER(dmlcl_binding_table_bind_outputs(NULL, 1, &none));
    EXPECT_POINTER(dmlcl_binding_table_dispatch(NULL, NULL, 0, NULL, NULL));
    EXPECT_POINTER(dmlcl_binding_table_status(NULL));

    dmlcl_host_tensor t = {NULL, 0};
    EXPECT_POINTER(dmlcl_compiled_operator_execute(NULL, 1, &t, 1, &t));
}

/* Releasing NULL is a no-op, as free(NULL) is. */
/* Any pointer converts to dmlcl_device* (and to ID3D12Device*): one that is not a device is
 * refused by every entry point that takes one, never kept (issue 35). */
Test(errors, device_pointers_are_checked)
{
    static const unsigned char not_a_device[64] = {0x12, 0x34};
    dmlcl_device *bad = (dmlcl_device *)(void *)not_a_device;
    bad_gather b;
    bad_gather_init(&b, 0);
    dmlcl_operator *op = NULL;
    cr_expect_eq(dmlcl_operator_create(bad, &b.op, &op), E_INVALIDARG);
    cr_expect_null(op);
    cr_expect(strstr(dmlcl_last_error(), "CreateOperator: device") &&
                  strstr(dmlcl_last_error(), "is not a dmlcl_device"),
              "%s", dmlcl_last_error());
    dmlcl_compiled_operator *graph = NULL;
    DML_GRAPH_DESC empty = {0};
    cr_expect_eq(dmlcl_graph_compile(bad, &empty, DML_EXECUTION_FLAG_NONE, &graph), E_INVALIDARG);
    cr_expect(strstr(dmlcl_last_error(), "CompileGraph: device"), "%s", dmlcl_last_error());
    DML_FEATURE_DATA_FEATURE_LEVELS levels;
    cr_expect_eq(dmlcl_device_check_feature_support(bad, DML_FEATURE_FEATURE_LEVELS, 0, NULL,
                                                    sizeof levels, &levels),
                 E_INVALIDARG);
    /* The accessors and reference counting cannot fail: nothing is read or written past the
     * tag, and the message says why. */
    cr_expect_null(dmlcl_device_context(bad));
    cr_expect_null(dmlcl_device_queue(bad));
    cr_expect_null(dmlcl_device_id(bad));
    cr_expect_str_eq(dmlcl_device_description(bad), "");
    cr_expect_eq(dmlcl_device_get_class(bad), DMLCL_DEVICE_CLASS_DEFAULT);
    dmlcl_device_retain(bad);
    dmlcl_device_release(bad);
    cr_expect(strstr(dmlcl_last_error(), "dmlcl_device_release: device"), "%s", dmlcl_last_error());
    for (size_t i = 0; i < sizeof not_a_device; ++i)
        cr_expect_eq(not_a_device[i], i == 0 ? 0x12 : i == 1 ? 0x34 : 0);
}

Test(errors, release_null_is_harmless)
{
    dmlcl_device_release(NULL);
    dmlcl_operator_release(NULL);
    dmlcl_compiled_operator_release(NULL);
    dmlcl_binding_table_release(NULL);
}

/* ---- Operator types -------------------------------------------------------------------- */

Test(errors, operator_types)
{
    bad_gather b;
    bad_gather_init(&b, 0);
    dmlcl_operator *op = NULL;

    /* A legal descriptor dmlcl does not implement: QUANTIZE into INT4 (DirectML's 6.3 table;
     * dmlcl has no packed 4-bit tensors): unsupported, naming the field. */
    UINT four[1] = {4}, one[1] = {1};
    DML_BUFFER_TENSOR_DESC xb = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, four, NULL, 16, 0};
    DML_BUFFER_TENSOR_DESC sb = {
        DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 1, one, NULL, 4, 0};
    DML_BUFFER_TENSOR_DESC yb = {
        DML_TENSOR_DATA_TYPE_INT4, DML_TENSOR_FLAG_NONE, 1, four, NULL, 4, 0};
    DML_TENSOR_DESC xt = {DML_TENSOR_TYPE_BUFFER, &xb}, st = {DML_TENSOR_TYPE_BUFFER, &sb},
                    yt = {DML_TENSOR_TYPE_BUFFER, &yb};
    DML_QUANTIZE_OPERATOR_DESC q = {&xt, DML_QUANTIZATION_TYPE_SCALE, 1, &st, &yt};
    DML_OPERATOR_DESC qd = {DML_OPERATOR_QUANTIZE, &q};
    HRESULT hr = dmlcl_operator_create(NULL, &qd, &op);
    cr_expect_eq(hr, DXGI_ERROR_UNSUPPORTED, "QUANTIZE to INT4: got %s: %s", dmlcl_hresult_name(hr),
                 dmlcl_last_error());
    cr_expect(strstr(dmlcl_last_error(), "QUANTIZE") &&
                  strstr(dmlcl_last_error(), "OutputTensor.DataType (INT4)"),
              "%s", dmlcl_last_error());
    cr_expect_null(op);

    /* Not a DML_OPERATOR_TYPE value at all. */
    b.op.Type = DML_OPERATOR_INVALID;
    hr = dmlcl_operator_create(NULL, &b.op, &op);
    cr_expect_eq(hr, E_INVALIDARG, "INVALID: got %s: %s", dmlcl_hresult_name(hr),
                 dmlcl_last_error());
    cr_expect_null(op);
    b.op.Type = (DML_OPERATOR_TYPE)9999;
    hr = dmlcl_operator_create(NULL, &b.op, &op);
    cr_expect_eq(hr, E_INVALIDARG, "9999: got %s: %s", dmlcl_hresult_name(hr), dmlcl_last_error());
    cr_expect_null(op);
}
