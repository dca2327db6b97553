/* SPDX-License-Identifier: MIT */
/*
 * dmlcl-concurrency: 8 threads dispatch at once, each on a queue of its own,
 * through compiled operators shared by all threads (the compiled operator's
 * lock serialises kernel arguments) and compiled privately per thread, with
 * binding tables of their own. Every output must equal, bit for bit, the one
 * a single-threaded run of the same work produced first. Run under
 * ThreadSanitizer in CI (scripts/test). Exit status 0 on success.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "dmlcl/frontends.h"

#define THREADS 8
#define ROUNDS 12
#define N 4096 /* elements per input */
#define F32 DML_TENSOR_DATA_TYPE_FLOAT32

typedef struct work {
    const char *name;
    DML_OPERATOR_DESC desc;
    uint64_t in_bytes[2], out_bytes;
    int n_inputs;
} work;

/* The operators: a transposing IDENTITY, DirectML GATHER (clamp), ONNX Gather
 * (ERROR policy, status read back), a strided SLICE. */
enum { OPS = 4 };
static work ops[OPS];
static dmlcl_compiled_operator *shared[OPS];
static dmlcl_device *device;

static UINT sq[2] = {64, 64}, sq_t[2] = {1, 64};
static DML_BUFFER_TENSOR_DESC id_in = {F32, 0, 2, sq, NULL, N * 4, 0},
                              id_out = {F32, 0, 2, sq, sq_t, N * 4, 0};
static DML_TENSOR_DESC id_in_t = {DML_TENSOR_TYPE_BUFFER, &id_in},
                       id_out_t = {DML_TENSOR_TYPE_BUFFER, &id_out};
static DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {&id_in_t, &id_out_t, NULL};

static UINT g_in[4] = {1, 1, 64, 64}, g_idx[4] = {1, 1, 1, 100}, g_out[4] = {1, 1, 100, 64};
static DML_BUFFER_TENSOR_DESC gi = {F32, 0, 4, g_in, NULL, N * 4, 0},
                              gx = {DML_TENSOR_DATA_TYPE_INT32, 0, 4, g_idx, NULL, 400, 0},
                              go = {F32, 0, 4, g_out, NULL, 100 * 64 * 4, 0};
static DML_TENSOR_DESC gi_t = {DML_TENSOR_TYPE_BUFFER, &gi}, gx_t = {DML_TENSOR_TYPE_BUFFER, &gx},
                       go_t = {DML_TENSOR_TYPE_BUFFER, &go};
static DML_GATHER_OPERATOR_DESC gather = {&gi_t, &gx_t, &go_t, 2, 1};

static UINT s_in[2] = {64, 64}, s_off[2] = {3, 1}, s_sz[2] = {20, 30}, s_st[2] = {3, 2};
static DML_BUFFER_TENSOR_DESC si = {F32, 0, 2, s_in, NULL, N * 4, 0},
                              so = {F32, 0, 2, s_sz, NULL, 20 * 30 * 4, 0};
static DML_TENSOR_DESC si_t = {DML_TENSOR_TYPE_BUFFER, &si}, so_t = {DML_TENSOR_TYPE_BUFFER, &so};
static DML_SLICE_OPERATOR_DESC slice = {&si_t, &so_t, 2, s_off, s_sz, s_st};

static dmlcl_frontend_result onnx;

static int setup(void)
{
    const dmlcl_shape data = {2, {64, 64}}, idx = {1, {100}};
    const dmlcl_onnx_gather_args args = {&data, F32, &idx, DML_TENSOR_DATA_TYPE_INT64, 1};
    if (FAILED(dmlcl_onnx_gather(13, &args, &onnx)))
        return 1;
    ops[0] = (work){"IDENTITY", {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity}, {N * 4}, N * 4, 1};
    ops[1] = (work){"GATHER", {DML_OPERATOR_GATHER, &gather}, {N * 4, 400}, 100 * 64 * 4, 2};
    ops[2] = (work){"ONNX Gather", onnx.desc, {N * 4, 800}, 64 * 100 * 4, 2};
    ops[3] = (work){"SLICE", {DML_OPERATOR_SLICE, &slice}, {N * 4}, 20 * 30 * 4, 1};
    return 0;
}

static HRESULT compile(int k, dmlcl_compiled_operator **c)
{
    dmlcl_operator *op;
    HRESULT hr = dmlcl_operator_create(device, &ops[k].desc, &op);
    if (SUCCEEDED(hr))
        hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, c);
    if (SUCCEEDED(hr))
        dmlcl_operator_release(op);
    return hr;
}

/* Inputs of thread t, round r, operator k: distinct bit patterns (indices: in and out of range). */
static void fill(int t, int r, int k, int i, unsigned char *buf, uint64_t bytes)
{
    uint32_t x = 2654435761u * (uint32_t)(t * 1000 + r * 10 + k + 1) + (uint32_t)i;
    for (uint64_t b = 0; b < bytes; b += 4) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        uint32_t v = x;
        if (i == 1 && k == 1)
            v = x % 80; /* GATHER INT32 indices: some past 64, clamped */
        memcpy(buf + b, &v, 4);
    }
    if (i == 1 && k == 2) /* ONNX INT64 indices: in range, one bad every 4th round */
        for (uint64_t e = 0; e < bytes / 8; ++e) {
            int64_t v = (int64_t)((x + e * 7) % 64) - (e % 2 ? 64 : 0);
            if (r % 4 == 3 && e == 17)
                v = 1000;
            memcpy(buf + e * 8, &v, 8);
        }
}

typedef struct result {
    unsigned char *out[ROUNDS][OPS];
    HRESULT status[ROUNDS][OPS];
} result;

typedef struct thread_arg {
    int t;
    result *res;
    char error[512];
} thread_arg;

static int run_one(thread_arg *a, cl_command_queue q, dmlcl_compiled_operator *c, int r, int k)
{
    cl_context ctx = dmlcl_device_context(device);
    const work *w = &ops[k];
    cl_mem mem[3] = {NULL, NULL, NULL};
    DML_BUFFER_BINDING bb[3];
    DML_BINDING_DESC bd[3];
    cl_int err = CL_SUCCESS;
    unsigned char *host = malloc(N * 8);
    for (int i = 0; i < w->n_inputs + 1 && err == CL_SUCCESS; ++i) {
        uint64_t bytes = i < w->n_inputs ? w->in_bytes[i] : w->out_bytes;
        fill(a->t, r, k, i < w->n_inputs ? i : 9, host, bytes);
        mem[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
        bb[i] = (DML_BUFFER_BINDING){(ID3D12Resource *)mem[i], 0, bytes};
        bd[i] = (DML_BINDING_DESC){DML_BINDING_TYPE_BUFFER, &bb[i]};
    }
    dmlcl_binding_table *tab = NULL;
    HRESULT hr = err == CL_SUCCESS ? dmlcl_binding_table_create(c, &tab) : E_FAIL;
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_inputs(tab, (UINT)w->n_inputs, bd);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_bind_outputs(tab, 1, bd + w->n_inputs);
    if (SUCCEEDED(hr))
        hr = dmlcl_binding_table_dispatch(tab, q, 0, NULL, NULL);
    if (SUCCEEDED(hr)) {
        a->res->status[r][k] = dmlcl_binding_table_status(tab);
        a->res->out[r][k] = malloc(w->out_bytes);
        err = clEnqueueReadBuffer(q, mem[w->n_inputs], CL_TRUE, 0, w->out_bytes, a->res->out[r][k],
                                  0, NULL, NULL);
        hr = err == CL_SUCCESS ? S_OK : E_FAIL;
    }
    if (FAILED(hr))
        snprintf(a->error, sizeof a->error, "thread %d round %d %s: %s (%s)", a->t, r, w->name,
                 dmlcl_hresult_name(hr), dmlcl_last_error());
    dmlcl_binding_table_release(tab);
    for (int i = 0; i < 3; ++i)
        if (mem[i])
            clReleaseMemObject(mem[i]);
    free(host);
    return FAILED(hr);
}

/* Rounds alternate the shared compiled operators and this thread's own. */
static void *thread_main(void *p)
{
    thread_arg *a = p;
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueue(dmlcl_device_context(device), dmlcl_device_id(device), 0, &err);
    if (err != CL_SUCCESS) {
        snprintf(a->error, sizeof a->error, "thread %d: clCreateCommandQueue %d", a->t, err);
        return NULL;
    }
    dmlcl_compiled_operator *own[OPS] = {NULL};
    for (int k = 0; k < OPS && !a->error[0]; ++k)
        if (FAILED(compile(k, &own[k])))
            snprintf(a->error, sizeof a->error, "thread %d: compile %s: %s", a->t, ops[k].name,
                     dmlcl_last_error());
    for (int r = 0; r < ROUNDS && !a->error[0]; ++r)
        for (int k = 0; k < OPS && !a->error[0]; ++k)
            run_one(a, q, r % 2 ? own[k] : shared[k], r, k);
    for (int k = 0; k < OPS; ++k)
        dmlcl_compiled_operator_release(own[k]);
    clReleaseCommandQueue(q);
    return NULL;
}

static int compare(const result *want, const result *got, int t)
{
    int bad = 0;
    for (int r = 0; r < ROUNDS; ++r)
        for (int k = 0; k < OPS; ++k) {
            if (want->status[r][k] != got->status[r][k]) {
                fprintf(stderr, "thread %d round %d %s: status %s, single-threaded %s\n", t, r,
                        ops[k].name, dmlcl_hresult_name(got->status[r][k]),
                        dmlcl_hresult_name(want->status[r][k]));
                bad = 1;
            }
            if (memcmp(want->out[r][k], got->out[r][k], ops[k].out_bytes)) {
                fprintf(stderr,
                        "thread %d round %d %s: output differs from the single-threaded "
                        "run\n",
                        t, r, ops[k].name);
                bad = 1;
            }
        }
    return bad;
}

int main(void)
{
    if (setup() || FAILED(dmlcl_device_create(&device))) {
        fprintf(stderr, "dmlcl-concurrency: setup: %s\n", dmlcl_last_error());
        return 1;
    }
    for (int k = 0; k < OPS; ++k)
        if (FAILED(compile(k, &shared[k]))) {
            fprintf(stderr, "dmlcl-concurrency: compile %s: %s\n", ops[k].name, dmlcl_last_error());
            return 1;
        }
    static result single[THREADS], multi[THREADS];
    thread_arg args[THREADS];
    /* The reference: each thread's work, one thread after the other. */
    for (int t = 0; t < THREADS; ++t) {
        args[t] = (thread_arg){t, &single[t], ""};
        thread_main(&args[t]);
        if (args[t].error[0]) {
            fprintf(stderr, "dmlcl-concurrency: single-threaded: %s\n", args[t].error);
            return 1;
        }
    }
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        args[t] = (thread_arg){t, &multi[t], ""};
        pthread_create(&th[t], NULL, thread_main, &args[t]);
    }
    int bad = 0, errors = 0;
    for (int t = 0; t < THREADS; ++t)
        pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; ++t) {
        if (args[t].error[0]) {
            fprintf(stderr, "dmlcl-concurrency: %s\n", args[t].error);
            errors = 1;
            continue;
        }
        bad |= compare(&single[t], &multi[t], t);
    }
    int bad_status = 0;
    for (int r = 0; r < ROUNDS; ++r) /* the check cannot pass vacuously: round 3 has a bad index */
        bad_status += single[0].status[r][2] == DMLCL_E_INDEX_OUT_OF_RANGE;
    if (bad_status != ROUNDS / 4) {
        fprintf(stderr, "dmlcl-concurrency: %d ONNX Gather rounds reported a bad index, want %d\n",
                bad_status, ROUNDS / 4);
        bad = 1;
    }
    for (int t = 0; t < THREADS; ++t)
        for (int r = 0; r < ROUNDS; ++r)
            for (int k = 0; k < OPS; ++k)
                free(single[t].out[r][k]), free(multi[t].out[r][k]);
    for (int k = 0; k < OPS; ++k)
        dmlcl_compiled_operator_release(shared[k]);
    dmlcl_device_release(device);
    printf("dmlcl-concurrency: %d threads x %d rounds x %d operators: %s\n", THREADS, ROUNDS, OPS,
           bad || errors ? "FAILED" : "bit-exact against the single-threaded run");
    return bad || errors;
}
