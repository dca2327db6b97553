/* SPDX-License-Identifier: MIT */
/*
 * MULTIHEAD_ATTENTION's and MULTIHEAD_ATTENTION1's validation on the host (no OpenCL device):
 * one query, key and value source each, the types (FLOAT32, FLOAT16; the mask INT32), the head
 * counts, MaskType and its tensor, past key and value together, PastSequenceLengthsTensor
 * (unsupported), every tensor's rank and sizes, and the description they lower to. Each broken
 * rule checks the HRESULT and that the message names the field and the value.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "launch.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define I32 DML_TENSOR_DATA_TYPE_INT32

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC d = {type, desc};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

/* batch 2, seq 3, kv_seq 4, past 2, heads 2, head_size 4, value_head_size 3. */
enum { B = 2, S = 3, KV = 4, P = 2, H = 2, E = 4, VE = 3, T = P + KV };

typedef struct attn_fixture {
    unit_tensor q, k, v, qk, kv, qkv, bias, mask, rpb, pk, pv, psl, out, prk, prv;
    DML_MULTIHEAD_ATTENTION_OPERATOR_DESC mha;
    DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC mha1;
} attn_fixture;

/* Every tensor but the stacked ones and PastSequenceLengths; a BOOLEAN mask. */
static void fixture(attn_fixture *f)
{
    memset(f, 0, sizeof *f);
    const UINT qs[3] = {B, S, H * E}, ks[3] = {B, KV, H * E}, vs[3] = {B, KV, H * VE};
    const UINT qks[5] = {B, S, H, 2, E}, kvs[5] = {B, KV, H, 2, E}, qkvs[5] = {B, S, H, 3, E};
    const UINT bs[1] = {2 * H * E + H * VE}, ms[4] = {B, H, S, T}, pks[4] = {B, H, P, E};
    const UINT pvs[4] = {B, H, P, VE}, os[3] = {B, S, H * VE}, prks[4] = {B, H, T, E};
    const UINT prvs[4] = {B, H, T, VE}, psls[1] = {B};
    f->mha.QueryTensor = unit_tensor_set(&f->q, F32, 3, qs, NULL);
    f->mha.KeyTensor = unit_tensor_set(&f->k, F32, 3, ks, NULL);
    f->mha.ValueTensor = unit_tensor_set(&f->v, F32, 3, vs, NULL);
    unit_tensor_set(&f->qk, F32, 5, qks, NULL);
    unit_tensor_set(&f->kv, F32, 5, kvs, NULL);
    unit_tensor_set(&f->qkv, F32, 5, qkvs, NULL);
    f->mha.BiasTensor = unit_tensor_set(&f->bias, F32, 1, bs, NULL);
    f->mha.MaskTensor = unit_tensor_set(&f->mask, I32, 4, ms, NULL);
    f->mha.RelativePositionBiasTensor = unit_tensor_set(&f->rpb, F32, 4, ms, NULL);
    f->mha.PastKeyTensor = unit_tensor_set(&f->pk, F32, 4, pks, NULL);
    f->mha.PastValueTensor = unit_tensor_set(&f->pv, F32, 4, pvs, NULL);
    unit_tensor_set(&f->psl, I32, 1, psls, NULL);
    f->mha.OutputTensor = unit_tensor_set(&f->out, F32, 3, os, NULL);
    f->mha.OutputPresentKeyTensor = unit_tensor_set(&f->prk, F32, 4, prks, NULL);
    f->mha.OutputPresentValueTensor = unit_tensor_set(&f->prv, F32, 4, prvs, NULL);
    f->mha.Scale = 0.5f;
    f->mha.MaskFilterValue = -10000.0f;
    f->mha.HeadCount = H;
    f->mha.MaskType = DML_MULTIHEAD_ATTENTION_MASK_TYPE_BOOLEAN;
    const DML_MULTIHEAD_ATTENTION_OPERATOR_DESC *m = &f->mha;
    f->mha1 = (DML_MULTIHEAD_ATTENTION1_OPERATOR_DESC){m->QueryTensor,
                                                       m->KeyTensor,
                                                       m->ValueTensor,
                                                       NULL,
                                                       NULL,
                                                       NULL,
                                                       m->BiasTensor,
                                                       m->MaskTensor,
                                                       m->RelativePositionBiasTensor,
                                                       m->PastKeyTensor,
                                                       m->PastValueTensor,
                                                       NULL,
                                                       m->OutputTensor,
                                                       m->OutputPresentKeyTensor,
                                                       m->OutputPresentValueTensor,
                                                       m->Scale,
                                                       m->MaskFilterValue,
                                                       H,
                                                       H,
                                                       m->MaskType};
}

#define MHA DML_OPERATOR_MULTIHEAD_ATTENTION
#define MHA1 DML_OPERATOR_MULTIHEAD_ATTENTION1

Test(attention_validate, accepts_every_form_and_optional_tensors_absent)
{
    attn_fixture f;
    fixture(&f);
    cr_expect_eq(create(MHA, &f.mha), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(create(MHA1, &f.mha1), S_OK, "%s", dmlcl_last_error());
    f.mha.BiasTensor = f.mha.MaskTensor = f.mha.RelativePositionBiasTensor = NULL;
    f.mha.PastKeyTensor = f.mha.PastValueTensor = NULL;
    f.mha.OutputPresentKeyTensor = f.mha.OutputPresentValueTensor = NULL;
    f.mha.MaskType = DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE;
    cr_expect_eq(create(MHA, &f.mha), S_OK, "%s", dmlcl_last_error());
    /* Stacked forms (no past: the key and value sequences are the query's for QK and QKV). */
    f.mha.QueryTensor = f.mha.KeyTensor = NULL;
    f.mha.StackedQueryKeyTensor = &f.qk.desc;
    f.v.sizes[1] = S;
    unit_tensor_fit(&f.v);
    cr_expect_eq(create(MHA, &f.mha), S_OK, "%s", dmlcl_last_error());
    f.mha.StackedQueryKeyTensor = f.mha.ValueTensor = NULL;
    f.mha.StackedQueryKeyValueTensor = &f.qkv.desc;
    f.out.sizes[2] = H * E;
    unit_tensor_fit(&f.out);
    cr_expect_eq(create(MHA, &f.mha), S_OK, "%s", dmlcl_last_error());
    f.mha.StackedQueryKeyValueTensor = NULL;
    f.mha.QueryTensor = &f.q.desc;
    f.mha.StackedKeyValueTensor = &f.kv.desc;
    cr_expect_eq(create(MHA, &f.mha), S_OK, "%s", dmlcl_last_error());
    /* A 5-dimensional query whose leading sizes are 1. */
    fixture(&f);
    const UINT q5[5] = {1, 1, B, S, H * E};
    unit_tensor_set(&f.q, F32, 5, q5, NULL);
    cr_expect_eq(create(MHA, &f.mha), S_OK, "%s", dmlcl_last_error());
}

Test(attention_validate, one_source_each)
{
    attn_fixture f;
    fixture(&f);
    f.mha.QueryTensor = NULL;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "MULTIHEAD_ATTENTION", "query", "QueryTensor",
           "StackedQueryKeyValueTensor", "(0 given)");
    fixture(&f);
    f.mha.StackedKeyValueTensor = &f.kv.desc;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "key", "KeyTensor", "StackedKeyValueTensor",
           "(2 given)");
    fixture(&f);
    f.mha.StackedQueryKeyValueTensor = &f.qkv.desc;
    f.mha.QueryTensor = f.mha.KeyTensor = NULL;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "value", "ValueTensor", "(2 given)");
}

Test(attention_validate, types)
{
    attn_fixture f;
    fixture(&f);
    f.q.buf.DataType = I32;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "QueryTensor.DataType", "INT32",
           "FLOAT32 or FLOAT16");
    fixture(&f);
    unit_tensor_set_type(&f.k, F16);
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "KeyTensor", "FLOAT16");
    fixture(&f);
    unit_tensor_set_type(&f.prv, F16);
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "OutputPresentValueTensor", "FLOAT16");
    fixture(&f);
    unit_tensor_set_type(&f.mask, F32);
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "MaskTensor.DataType", "FLOAT32", "INT32");
}

Test(attention_validate, head_counts)
{
    attn_fixture f;
    fixture(&f);
    f.mha.HeadCount = 0;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "HeadCount", "(0)", "at least 1");
    fixture(&f);
    f.mha.HeadCount = 3;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "QueryTensor.Sizes[2]", "(8", "multiple", "(3)");
    fixture(&f);
    f.mha1.KeyValueHeadCount = 0;
    EXPECT(create(MHA1, &f.mha1), E_INVALIDARG, "MULTIHEAD_ATTENTION1", "KeyValueHeadCount", "(0)");
    fixture(&f);
    f.mha1.QueryHeadCount = 0;
    EXPECT(create(MHA1, &f.mha1), E_INVALIDARG, "QueryHeadCount", "(0)");
    fixture(&f);
    f.mha1.QueryHeadCount = 3;
    EXPECT(create(MHA1, &f.mha1), E_INVALIDARG, "QueryHeadCount (3)", "multiple",
           "KeyValueHeadCount (2)");
    fixture(&f);
    f.mha1.QueryHeadCount = 2, f.mha1.KeyValueHeadCount = 1;
    f.mha1.QueryTensor = f.mha1.KeyTensor = f.mha1.ValueTensor = NULL;
    f.mha1.StackedQueryKeyValueTensor = &f.qkv.desc;
    EXPECT(create(MHA1, &f.mha1), E_INVALIDARG, "QueryHeadCount (2)", "KeyValueHeadCount (1)",
           "StackedQueryKeyValueTensor");
    fixture(&f);
    f.v.sizes[2] = 5;
    unit_tensor_fit(&f.v);
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "ValueTensor.Sizes[2]", "(5", "multiple");
}

Test(attention_validate, mask_type_past_and_past_sequence_lengths)
{
    attn_fixture f;
    fixture(&f);
    f.mha.MaskType = (DML_MULTIHEAD_ATTENTION_MASK_TYPE)5;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "MaskType", "(5)");
    fixture(&f);
    f.mha.MaskType = DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "MaskTensor must be NULL", "MaskType is 0");
    fixture(&f);
    f.mha.MaskTensor = NULL;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "MaskTensor must be given", "MaskType is 4");
    fixture(&f);
    f.mha.PastValueTensor = NULL;
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "PastKeyTensor and PastValueTensor",
           "PastValueTensor is NULL");
    fixture(&f);
    f.mha1.PastSequenceLengthsTensor = &f.psl.desc;
    EXPECT(create(MHA1, &f.mha1), DXGI_ERROR_UNSUPPORTED, "MULTIHEAD_ATTENTION1",
           "PastSequenceLengthsTensor", "not implemented");
}

Test(attention_validate, sizes_and_ranks)
{
    static const char *const fields[] = {"KeyTensor.Sizes",
                                         "ValueTensor.Sizes",
                                         "BiasTensor.Sizes",
                                         "RelativePositionBiasTensor.Sizes",
                                         "PastKeyTensor.Sizes",
                                         "PastValueTensor.Sizes",
                                         "MaskTensor.Sizes",
                                         "OutputTensor.Sizes",
                                         "OutputPresentKeyTensor.Sizes",
                                         "OutputPresentValueTensor.Sizes"};
    for (int i = 0; i < 10; ++i) {
        attn_fixture f;
        fixture(&f);
        unit_tensor *t[] = {&f.k,  &f.v,    &f.bias, &f.rpb, &f.pk,
                            &f.pv, &f.mask, &f.out,  &f.prk, &f.prv};
        /* The batch of each (the bias its one size; the past key's last, head_size). */
        int dim = i == 2 ? 0 : i == 4 ? 3 : 0;
        t[i]->sizes[dim] += 1;
        unit_tensor_fit(t[i]);
        EXPECT(create(MHA, &f.mha), E_INVALIDARG, "MULTIHEAD_ATTENTION", fields[i], "must be");
    }
    attn_fixture f;
    fixture(&f);
    f.mha.QueryTensor = f.mha.KeyTensor = f.mha.ValueTensor = NULL;
    f.mha.StackedQueryKeyValueTensor = &f.qkv.desc;
    f.mha.PastKeyTensor = f.mha.PastValueTensor = NULL;
    f.mha.MaskTensor = f.mha.RelativePositionBiasTensor = f.mha.BiasTensor = NULL;
    f.mha.MaskType = DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE;
    f.mha.OutputPresentKeyTensor = f.mha.OutputPresentValueTensor = NULL;
    f.out.sizes[2] = H * E;
    unit_tensor_fit(&f.out);
    f.qkv.sizes[3] = 2;
    unit_tensor_fit(&f.qkv);
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "StackedQueryKeyValueTensor.Sizes",
           "{batch, seq, heads, 3, head_size}");
    fixture(&f);
    const UINT q4[4] = {2, B, S, H * E};
    unit_tensor_set(&f.q, F32, 4, q4, NULL);
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "QueryTensor.Sizes[0]", "(2)", "must be 1");
    fixture(&f);
    const UINT r3[3] = {H, S, T};
    unit_tensor_set(&f.rpb, F32, 3, r3, NULL);
    EXPECT(create(MHA, &f.mha), E_INVALIDARG, "RelativePositionBiasTensor.DimensionCount", "(3)",
           "must be 4");
}

Test(attention_validate, mask_sizes_per_kind)
{
    static const struct {
        DML_MULTIHEAD_ATTENTION_MASK_TYPE type;
        UINT rank, sizes[2];
        const char *rule;
    } kinds[] = {
        {DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_LENGTH, 2, {1, B}, "{1, batch}"},
        {DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_END_START, 2, {2, B}, "{2, batch}"},
        {DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_QUERY_SEQUENCE_LENGTH_START_END,
         1,
         {3 * B + 2},
         "{batch * 3 + 2}"},
    };
    for (int i = 0; i < 3; ++i) {
        attn_fixture f;
        fixture(&f);
        f.mha.MaskType = kinds[i].type;
        unit_tensor_set(&f.mask, I32, kinds[i].rank, kinds[i].sizes, NULL);
        cr_expect_eq(create(MHA, &f.mha), S_OK, "%s", dmlcl_last_error());
        f.mask.sizes[kinds[i].rank - 1] += 1;
        unit_tensor_fit(&f.mask);
        EXPECT(create(MHA, &f.mha), E_INVALIDARG, "MaskTensor.Sizes", kinds[i].rule);
    }
}

Test(attention_validate, lowers_to_the_attention_family)
{
    attn_fixture f;
    fixture(&f);
    f.mha.QueryTensor = NULL;
    f.mha.KeyTensor = NULL;
    f.mha.StackedQueryKeyTensor = &f.qk.desc;
    f.mha.PastKeyTensor = f.mha.PastValueTensor = NULL;
    f.mha.OutputPresentKeyTensor = f.mha.OutputPresentValueTensor = NULL;
    f.mha.MaskTensor = f.mha.RelativePositionBiasTensor = NULL;
    f.mha.MaskType = DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE;
    f.v.sizes[1] = S;
    unit_tensor_fit(&f.v);
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    cr_assert_eq(dmli_op_class_create(dmli_op_class_find(MHA), &f.mha, &st), S_OK, "%s",
                 dmlcl_last_error());
    cr_assert(st.computed);
    cr_expect_eq(st.compute.kind, DMLI_COMPUTE_ATTN);
    cr_expect_eq(st.compute.n_tensors, DMLI_ATTN_ROLES);
    const dmli_attention *a = DMLI_COMPUTE_WORK_CONST(&st.compute, dmli_attention);
    cr_expect_eq(a->kv_seq, S);
    cr_expect_eq(a->head_size, E);
    cr_expect_eq(a->value_head_size, VE);
    /* StackedQueryKey {B, S, H, 2, E}: the key at stack index 1, strides over (b, t, h, d). */
    cr_expect_eq(st.compute.tensors[DMLI_ATTN_Q].offset, 0);
    cr_expect_eq(st.compute.tensors[DMLI_ATTN_K].offset, E);
    cr_expect_eq(a->stride[DMLI_ATTN_K][0], S * H * 2 * E);
    cr_expect_eq(a->stride[DMLI_ATTN_K][2], 2 * E);
    cr_expect_eq(a->stride[DMLI_ATTN_K][3], 1);
    /* ValueTensor {B, S, H * VE}: head h at h * VE. */
    cr_expect_eq(a->stride[DMLI_ATTN_V][2], VE);
    cr_expect(a->present[DMLI_ATTN_BIAS] && !a->present[DMLI_ATTN_PK]);
    uint32_t bucket = 0;
    cr_expect_eq(dmli_attention_local_bytes(a, &bucket), 64 * 4);
    cr_expect_eq(bucket, 64);
    dmli_op_state_release(&st);
}

/* The launch: one work-group per (query position, batch element and head), items the longer
 * of the keys and the value columns up to 64; a total sequence past the device's local memory
 * refused with the sizes named. */
Test(attention_validate, launch_grid_and_local_memory_refusal)
{
    static const dmli_device_desc gpu = {.device_class = DMLCL_DEVICE_CLASS_GPU,
                                         .compute_units = 8,
                                         .max_work_group_size = 256,
                                         .max_item_sizes = {256, 256, 64},
                                         .local_mem_size = 48 * 1024};
    dmli_compute c;
    dmli_compute_init(&c, DMLI_COMPUTE_ATTN);
    dmli_attention *a = DMLI_COMPUTE_WORK(&c, dmli_attention);
    *a = (dmli_attention){.type = F32,
                          .batch = 2,
                          .seq = 5,
                          .kv_seq = 7,
                          .past = 3,
                          .heads = 4,
                          .kv_heads = 2,
                          .head_size = 8,
                          .value_head_size = 6};
    dmli_compute_launch *l = calloc(1, sizeof *l);
    cr_assert(l);
    dmli_launch_compute(&c, &gpu, l);
    cr_expect_str_empty(l->refusal);
    cr_expect_eq(l->global[0], 10); /* max(3 + 7 keys, 6 columns) */
    cr_expect_eq(l->global[1], 5);
    cr_expect_eq(l->global[2], 8);
    cr_expect_eq(l->local[0], 10);
    cr_expect(strstr(l->options, "-DTMAX=64") != NULL, "%s", l->options);
    a->kv_seq = 20000; /* bucket 65536: 256 KiB of scores */
    dmli_launch_compute(&c, &gpu, l);
    cr_expect(strstr(l->refusal, "20003") && strstr(l->refusal, "49152"), "%s", l->refusal);
    free(l);
}
