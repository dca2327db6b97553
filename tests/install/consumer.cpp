// SPDX-License-Identifier: MIT
// An application of the installed package in C++, with dmlcl's default
// OpenCL target: an ONNX Gather on host memory, through RAII handles.
#include <dmlcl/dmlcl.h>
#include <dmlcl/frontends.h>

#include <cstdio>
#include <memory>
#include <vector>

namespace
{
struct Release {
    void operator()(dmlcl_device *d) const
    {
        dmlcl_device_release(d);
    }
    void operator()(dmlcl_operator *o) const
    {
        dmlcl_operator_release(o);
    }
    void operator()(dmlcl_compiled_operator *c) const
    {
        dmlcl_compiled_operator_release(c);
    }
};
int fail(HRESULT hr)
{
    std::fprintf(stderr, "consumer++: %s: %s\n", dmlcl_hresult_name(hr), dmlcl_last_error());
    return 1;
}
} // namespace

int main()
{
    std::vector<int32_t> data{10, 11, 12, 13, 14, 15};
    std::vector<int32_t> indices{1, -3};
    std::vector<int32_t> out(4, -1);
    // ONNX Gather, axis 1 of a 2x3 matrix: columns 1 and -3 (= 0).
    const std::vector<int32_t> expected{11, 10, 14, 13};
    dmlcl_shape ds{}, is{};
    ds.rank = 2, ds.dims[0] = 2, ds.dims[1] = 3;
    is.rank = 1, is.dims[0] = 2;
    dmlcl_onnx_gather_args args{};
    args.data = &ds, args.data_type = DML_TENSOR_DATA_TYPE_INT32;
    args.indices = &is, args.indices_type = DML_TENSOR_DATA_TYPE_INT32, args.axis = 1;
    dmlcl_frontend_result r;
    HRESULT hr = dmlcl_onnx_gather(13, &args, &r);
    if (FAILED(hr))
        return fail(hr);
    dmlcl_device *d = nullptr;
    if (FAILED(hr = dmlcl_device_create(&d)))
        return fail(hr);
    std::unique_ptr<dmlcl_device, Release> device(d);
    dmlcl_operator *o = nullptr;
    if (FAILED(hr = dmlcl_operator_create(device.get(), &r.desc, &o)))
        return fail(hr);
    std::unique_ptr<dmlcl_operator, Release> op(o);
    dmlcl_compiled_operator *c = nullptr;
    if (FAILED(hr = dmlcl_operator_compile(op.get(), DML_EXECUTION_FLAG_NONE, &c)))
        return fail(hr);
    std::unique_ptr<dmlcl_compiled_operator, Release> compiled(c);
    dmlcl_host_tensor in[2] = {{data.data(), data.size() * 4},
                               {indices.data(), indices.size() * 4}};
    dmlcl_host_tensor res = {out.data(), out.size() * 4};
    if (FAILED(hr = dmlcl_compiled_operator_execute(compiled.get(), 2, in, 1, &res)))
        return fail(hr);
    if (out != expected) {
        std::fprintf(stderr, "consumer++: wrong values %d %d %d %d\n", out[0], out[1], out[2],
                     out[3]);
        return 1;
    }
    std::printf("dmlcl %s: gather ok (C++)\n", dmlcl_version_string());
    return 0;
}
