/* SPDX-License-Identifier: MIT */
/*
 * Running one case: build the descriptor, create, compile, execute on host
 * buffers (outputs prefilled with a sentinel so unwritten elements show),
 * then compare every logical output element (compare.c), or check that the
 * expected error happened where the case says it does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static const char *expect_name(rt_expect e)
{
    return e == RT_EXPECT_INVALID_ARGUMENT ? "invalid_argument" : "index_out_of_range";
}

/* An HRESULT where the case expects an error: PASS with the message, or FAIL. */
void rt_expected_error(const rt_case *c, const char *step, HRESULT hr, HRESULT want, rt_result *r)
{
    if (hr == want)
        rt_verdict(r, 1, "%s: %s", expect_name(c->expect), dmlcl_last_error());
    else if (FAILED(hr))
        rt_verdict(r, 0, "expected %s, but %s returned %s: %s", expect_name(c->expect), step,
                   dmlcl_hresult_name(hr), dmlcl_last_error());
    else
        rt_verdict(r, 0, "expected %s, but %s succeeded", expect_name(c->expect), step);
}

/* The case's tensors as host tensors; outputs prefilled with the sentinel. */
static int host_tensors(rt_build *b, dmlcl_host_tensor *in, dmlcl_host_tensor *out, rt_result *r)
{
    for (unsigned i = 0; i < b->n_inputs; ++i) {
        in[i].data = b->inputs[i] ? b->inputs[i]->buffer : NULL;
        in[i].size = b->inputs[i] ? b->inputs[i]->buffer_size : 0;
    }
    for (unsigned i = 0; i < b->n_outputs; ++i) {
        if (b->outputs[i] == NULL) { /* an absent optional output: bound NONE */
            out[i].data = NULL;
            out[i].size = 0;
            continue;
        }
        if (rt_tensor_fill_sentinel(b->outputs[i]) != 0) {
            rt_verdict(r, 0, "out of memory");
            return -1;
        }
        out[i].data = b->outputs[i]->buffer;
        out[i].size = b->outputs[i]->buffer_size;
    }
    return 0;
}

static void execute(const rt_case *c, rt_build *b, dmlcl_compiled_operator *cop, rt_result *r)
{
    dmlcl_host_tensor in[RT_MAX_TENSORS], out[RT_MAX_TENSORS];
    if (host_tensors(b, in, out, r) != 0)
        return;
    HRESULT hr = dmlcl_compiled_operator_execute(cop, b->n_inputs, in, b->n_outputs, out);
    if (c->expect == RT_EXPECT_INDEX_OUT_OF_RANGE)
        rt_expected_error(c, "the dispatch", hr, DMLCL_E_INDEX_OUT_OF_RANGE, r);
    else if (FAILED(hr))
        rt_verdict(r, 0, "dmlcl_compiled_operator_execute returned %s: %s", dmlcl_hresult_name(hr),
                   dmlcl_last_error());
    else
        rt_check_outputs(c, b, r);
}

/* The whole case through DirectML's COM API. */
static void run_com(dmlcl_device *device, const rt_case *c, rt_build *b, rt_result *r)
{
    dmlcl_host_tensor in[RT_MAX_TENSORS], out[RT_MAX_TENSORS];
    if (host_tensors(b, in, out, r) != 0)
        return;
    const char *step = "";
    HRESULT hr = rt_com_run(device, &b->desc, b->n_inputs, in, b->n_outputs, out, &step);
    if (c->expect == RT_EXPECT_INVALID_ARGUMENT)
        rt_expected_error(c, step, hr, E_INVALIDARG, r);
    else if (c->expect == RT_EXPECT_INDEX_OUT_OF_RANGE)
        rt_verdict(r, 0,
                   "expected index_out_of_range, which DirectML's API has no way to report "
                   "(RecordDispatch is void and GATHER clamps); run it with --api c");
    else if (FAILED(hr))
        rt_verdict(r, 0, "%s returned %s: %s", step, dmlcl_hresult_name(hr), dmlcl_last_error());
    else
        rt_check_outputs(c, b, r);
}

static void run_built(dmlcl_device *device, const rt_case *c, rt_build *b, rt_result *r)
{
    dmlcl_operator *op = NULL;
    dmlcl_compiled_operator *cop = NULL;
    HRESULT hr = dmlcl_operator_create(device, &b->desc, &op);
    if (FAILED(hr)) {
        if (c->expect == RT_EXPECT_INVALID_ARGUMENT)
            rt_expected_error(c, "dmlcl_operator_create", hr, E_INVALIDARG, r);
        else
            rt_verdict(r, 0, "dmlcl_operator_create returned %s: %s", dmlcl_hresult_name(hr),
                       dmlcl_last_error());
        return;
    }
    hr = dmlcl_operator_compile(op, DML_EXECUTION_FLAG_NONE, &cop);
    if (c->expect == RT_EXPECT_INVALID_ARGUMENT) {
        /* Rejected when created, or at the latest when compiled. */
        rt_expected_error(c, "dmlcl_operator_create and dmlcl_operator_compile", hr, E_INVALIDARG,
                          r);
    } else if (FAILED(hr)) {
        rt_verdict(r, 0, "dmlcl_operator_compile returned %s: %s", dmlcl_hresult_name(hr),
                   dmlcl_last_error());
    } else {
        execute(c, b, cop, r);
    }
    if (cop != NULL)
        dmlcl_compiled_operator_release(cop);
    dmlcl_operator_release(op);
}

static void run_matched(dmlcl_device *device, rt_api api, const rt_case *c, rt_build *b,
                        rt_result *r)
{
    if (c->expect == RT_EXPECT_OUTPUTS && rt_match_outputs(c, b, r) != 0)
        return; /* r says why the case is malformed */
    if (api == RT_API_COM)
        run_com(device, c, b, r);
    else
        run_built(device, c, b, r);
}

void rt_run_case(dmlcl_device *device, const char *device_error, rt_api api, const rt_case *c,
                 rt_result *r)
{
    if (c->malformed != NULL) {
        rt_verdict(r, 0, "malformed case: %s", c->malformed);
        return;
    }
    if (c->graph != NULL) {
        rt_run_graph(device, device_error, api, c, r);
        return;
    }
    const rt_op *op = rt_op_find(c->op);
    if (op == NULL) {
        rt_verdict(r, 0, "unknown op \"%s\": the runner has no builder for it", c->op);
        return;
    }
    rt_build b;
    memset(&b, 0, sizeof b);
    b.c = c;
    if (rt_build_op(op, &b) != 0)
        rt_verdict(r, 0, "malformed case: %s", b.why);
    else if (FAILED(b.frontend_hr) && c->expect == RT_EXPECT_INVALID_ARGUMENT)
        rt_expected_error(c, "the front-end", b.frontend_hr, E_INVALIDARG, r);
    else if (FAILED(b.frontend_hr))
        rt_verdict(r, 0, "the front-end returned %s: %s", dmlcl_hresult_name(b.frontend_hr),
                   dmlcl_last_error());
    else if (device == NULL)
        rt_verdict(r, 0, "no device: %s", device_error);
    else
        run_matched(device, api, c, &b, r);
    rt_build_free(&b);
}

#ifndef DMLCL_CONFORMANCE_COM
/* Built without DirectML's C++ API (run_com.cpp): main refuses --api com. */
int rt_com_available(void)
{
    return 0;
}

HRESULT rt_com_run(dmlcl_device *device, const DML_OPERATOR_DESC *desc, unsigned n_inputs,
                   const dmlcl_host_tensor *inputs, unsigned n_outputs,
                   const dmlcl_host_tensor *outputs, const char **step)
{
    *step = "DirectML's COM API";
    return E_NOTIMPL;
}

HRESULT rt_com_run_graph(dmlcl_device *device, const DML_GRAPH_DESC *desc,
                         const DML_OPERATOR_DESC *const *node_descs, unsigned n_inputs,
                         const dmlcl_host_tensor *inputs, unsigned n_outputs,
                         const dmlcl_host_tensor *outputs, const char **step)
{
    *step = "DirectML's COM API";
    return E_NOTIMPL;
}
#endif
