/* tsr_from_blob, tsr_to_dlpack, tsr_from_dlpack: no copies (pointers and
 * writes are shared), deleters called exactly once and only when the last
 * view goes, every dtype's DLPack code, strides and byte offsets, and bad
 * input refused with the function and argument named. */
#include "check.h"

#include <dlpack/dlpack.h>

#include <stdlib.h>

static int deleted;
static void *deleted_data;
static void *deleted_context;

static void count_delete(void *data, void *context)
{
    deleted++;
    deleted_data = data;
    deleted_context = context;
}

static void blob_shares_memory_and_calls_the_deleter_once(void)
{
    float buf[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[2] = {2, 3};
    tsr_tensor *t = NULL, *view = NULL;
    int ctx = 0;
    deleted = 0;
    CHECK_OK(tsr_from_blob(buf, 2, shape, NULL, TSR_FLOAT32, count_delete, &ctx, NULL, &t));
    CHECK_TRUE(tsr_tensor_is_contiguous(t));
    CHECK_OK(tsr_fill_(t, tsr_scalar_float(7)));
    CHECK_DOUBLE(buf[5], 7.0, 0);
    buf[0] = 9;
    float back[6] = {0};
    CHECK_OK(tsr_to_host(t, back, sizeof back));
    CHECK_DOUBLE(back[0], 9.0, 0);
    CHECK_OK(tsr_transpose(t, 0, 1, &view));
    tsr_tensor_release(t);
    CHECK_INT(deleted, 0); /* the view still holds the memory */
    tsr_tensor_release(view);
    CHECK_INT(deleted, 1);
    CHECK_TRUE(deleted_data == buf && deleted_context == &ctx);
}

static void blob_takes_strides(void)
{
    int64_t buf[6] = {0, 1, 2, 3, 4, 5};
    int64_t shape[2] = {3, 2}, strides[2] = {1, 3}; /* the transpose of a 2x3 */
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_blob(buf, 2, shape, strides, TSR_INT64, NULL, NULL, NULL, &t));
    int64_t back[6] = {0};
    CHECK_OK(tsr_to_host(t, back, sizeof back));
    CHECK_INT(back[1], 3);
    CHECK_INT(back[2], 1);
    CHECK_INT(back[5], 5);
    CHECK_TRUE(!tsr_tensor_is_contiguous(t));
    tsr_tensor_release(t);
}

static void blob_refuses_bad_input(void)
{
    float buf[4] = {0};
    int64_t shape[1] = {4}, neg[1] = {-1}, bad_shape[1] = {-2};
    tsr_tensor *t = NULL;
    deleted = 0;
    CHECK_ERROR(tsr_from_blob(NULL, 1, shape, NULL, TSR_FLOAT32, count_delete, NULL, NULL, &t),
                TSR_ERR_INVALID_ARGUMENT, "tsr_from_blob: data");
    CHECK_ERROR(
        tsr_from_blob((char *)buf + 1, 1, shape, NULL, TSR_FLOAT32, count_delete, NULL, NULL, &t),
        TSR_ERR_INVALID_ARGUMENT, "not aligned");
    CHECK_ERROR(tsr_from_blob(buf, 1, shape, neg, TSR_FLOAT32, count_delete, NULL, NULL, &t),
                TSR_ERR_INVALID_ARGUMENT, "strides[0]");
    CHECK_ERROR(tsr_from_blob(buf, 1, bad_shape, NULL, TSR_FLOAT32, count_delete, NULL, NULL, &t),
                TSR_ERR_SHAPE, "tsr_from_blob");
    CHECK_ERROR(tsr_from_blob(buf, 1, NULL, NULL, TSR_FLOAT32, count_delete, NULL, NULL, &t),
                TSR_ERR_INVALID_ARGUMENT, "shape");
    CHECK_ERROR(tsr_from_blob(buf, 1, shape, NULL, (tsr_dtype)99, count_delete, NULL, NULL, &t),
                TSR_ERR_DTYPE, "dtype");
    CHECK_ERROR(tsr_from_blob(buf, 1, shape, NULL, TSR_FLOAT32, count_delete, NULL, NULL, NULL),
                TSR_ERR_INVALID_ARGUMENT, "out");
    CHECK_TRUE(t == NULL);
    CHECK_INT(deleted, 0);
}

/* Every dtype's code and bits, and the pointer: the storage itself. */
static void to_dlpack_writes_every_dtype(void)
{
    static const struct {
        tsr_dtype dtype;
        int code, bits;
    } rows[] = {
        {TSR_BOOL, kDLUInt, 8},          {TSR_UINT8, kDLUInt, 8},
        {TSR_INT8, kDLInt, 8},           {TSR_INT16, kDLInt, 16},
        {TSR_INT32, kDLInt, 32},         {TSR_INT64, kDLInt, 64},
        {TSR_FLOAT16, kDLFloat, 16},     {TSR_BFLOAT16, kDLBfloat, 16},
        {TSR_FLOAT32, kDLFloat, 32},     {TSR_FLOAT64, kDLFloat, 64},
        {TSR_COMPLEX64, kDLComplex, 64}, {TSR_COMPLEX128, kDLComplex, 128},
    };
    _Alignas(16) unsigned char buf[64] = {0};
    int64_t shape[2] = {2, 2};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        tsr_tensor *t = NULL;
        DLManagedTensor *m = NULL;
        deleted = 0;
        CHECK_OK(tsr_from_blob(buf, 2, shape, NULL, rows[i].dtype, count_delete, NULL, NULL, &t));
        CHECK_OK(tsr_to_dlpack(t, &m));
        tsr_tensor_release(t);
        if (!m)
            continue;
        CHECK_INT(m->dl_tensor.dtype.code, rows[i].code);
        CHECK_INT(m->dl_tensor.dtype.bits, rows[i].bits);
        CHECK_INT(m->dl_tensor.dtype.lanes, 1);
        CHECK_INT(m->dl_tensor.device.device_type, kDLCPU);
        CHECK_TRUE(m->dl_tensor.data == buf);
        CHECK_INT(m->dl_tensor.ndim, 2);
        CHECK_INT(m->dl_tensor.shape[1], 2);
        CHECK_INT(m->dl_tensor.strides[0], 2);
        CHECK_INT(deleted, 0); /* the managed tensor holds it */
        m->deleter(m);
        CHECK_INT(deleted, 1);
    }
}

static void to_dlpack_writes_view_offset_and_strides(void)
{
    double buf[12];
    for (int i = 0; i < 12; i++)
        buf[i] = i;
    int64_t shape[2] = {3, 4};
    tsr_tensor *t = NULL, *s = NULL, *v = NULL;
    DLManagedTensor *m = NULL;
    CHECK_OK(tsr_from_blob(buf, 2, shape, NULL, TSR_FLOAT64, NULL, NULL, NULL, &t));
    CHECK_OK(tsr_narrow(t, 1, 1, 2, &s)); /* columns 1..2 */
    CHECK_OK(tsr_transpose(s, 0, 1, &v));
    CHECK_OK(tsr_to_dlpack(v, &m));
    tsr_tensor_release(t);
    tsr_tensor_release(s);
    tsr_tensor_release(v);
    CHECK_INT(m->dl_tensor.byte_offset, sizeof(double));
    CHECK_INT(m->dl_tensor.shape[0], 2);
    CHECK_INT(m->dl_tensor.shape[1], 3);
    CHECK_INT(m->dl_tensor.strides[0], 1);
    CHECK_INT(m->dl_tensor.strides[1], 4);
    const double *base = (const double *)((char *)m->dl_tensor.data + m->dl_tensor.byte_offset);
    CHECK_DOUBLE(base[1 * 1 + 2 * 4], 10.0, 0); /* element [1][2]: row 2, column 2 */
    m->deleter(m);
}

static void to_dlpack_refuses_bad_input(void)
{
    DLManagedTensor *m = NULL;
    CHECK_ERROR(tsr_to_dlpack(NULL, &m), TSR_ERR_INVALID_ARGUMENT, "tsr_to_dlpack");
    int64_t shape[1] = {1};
    float v = 1;
    tsr_tensor *t = make_f32(1, shape, &v, 1);
    CHECK_ERROR(tsr_to_dlpack(t, NULL), TSR_ERR_INVALID_ARGUMENT, "out");
    tsr_tensor_release(t);
    CHECK_TRUE(m == NULL);
}

/* A producer's managed tensor, with a deleter that counts. */
typedef struct producer {
    DLManagedTensor managed;
    int64_t shape[2];
    int64_t strides[2];
    int deletes;
} producer;

static void producer_delete(DLManagedTensor *self)
{
    ((producer *)self->manager_ctx)->deletes++;
}

static void producer_init(producer *p, void *data, uint8_t code, uint8_t bits)
{
    memset(p, 0, sizeof *p);
    p->shape[0] = 2;
    p->shape[1] = 2;
    p->managed.dl_tensor = (DLTensor){data, {kDLCPU, 0}, 2, {code, bits, 1}, p->shape, NULL, 0};
    p->managed.manager_ctx = p;
    p->managed.deleter = producer_delete;
}

static void from_dlpack_wraps_and_deletes_once(void)
{
    /* a 2x2 view at byte offset 8, strides (1, 3) over a 3x3 buffer */
    int16_t buf[12] = {0, 0, 0, 0, 10, 11, 12, 13, 14, 15, 16, 17};
    producer p;
    producer_init(&p, buf, kDLInt, 16);
    p.managed.dl_tensor.byte_offset = 4 * sizeof(int16_t);
    p.strides[0] = 1;
    p.strides[1] = 3;
    p.managed.dl_tensor.strides = p.strides;
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_dlpack(&p.managed, NULL, &t));
    CHECK_INT(tsr_tensor_dtype(t), TSR_INT16);
    int16_t back[4] = {0};
    CHECK_OK(tsr_to_host(t, back, sizeof back));
    CHECK_INT(back[0], 10);
    CHECK_INT(back[1], 13);
    CHECK_INT(back[2], 11);
    CHECK_INT(back[3], 14);
    CHECK_OK(tsr_fill_(t, tsr_scalar_int(-1)));
    CHECK_INT(buf[7], -1);
    CHECK_INT(buf[6], 12); /* outside the view */
    CHECK_INT(p.deletes, 0);
    tsr_tensor_release(t);
    CHECK_INT(p.deletes, 1);
}

static void from_dlpack_reads_bool_bfloat16_complex(void)
{
    static const struct {
        uint8_t code, bits;
        tsr_dtype dtype;
    } rows[] = {{6, 8, TSR_BOOL},
                {kDLUInt, 8, TSR_UINT8},
                {kDLBfloat, 16, TSR_BFLOAT16},
                {kDLComplex, 64, TSR_COMPLEX64},
                {kDLComplex, 128, TSR_COMPLEX128},
                {kDLFloat, 16, TSR_FLOAT16}};
    _Alignas(16) unsigned char buf[64];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i % 2);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        producer p;
        producer_init(&p, buf, rows[i].code, rows[i].bits);
        tsr_tensor *t = NULL;
        CHECK_OK(tsr_from_dlpack(&p.managed, NULL, &t));
        CHECK_INT(tsr_tensor_dtype(t), rows[i].dtype);
        unsigned char back[64] = {0};
        size_t bytes = 4 * (size_t)rows[i].bits / 8;
        CHECK_OK(tsr_to_host(t, back, bytes));
        CHECK_TRUE(memcmp(back, buf, bytes) == 0);
        tsr_tensor_release(t);
        CHECK_INT(p.deletes, 1);
    }
}

static void from_dlpack_refuses_bad_input_and_keeps_ownership(void)
{
    float buf[4] = {0};
    producer p;
    tsr_tensor *t = NULL;
    producer_init(&p, buf, kDLFloat, 32);
    p.managed.dl_tensor.device.device_type = kDLCUDA;
    CHECK_ERROR(tsr_from_dlpack(&p.managed, NULL, &t), TSR_ERR_UNIMPLEMENTED, "device type 2");
    producer_init(&p, buf, kDLFloat, 32);
    p.managed.dl_tensor.dtype.lanes = 4;
    CHECK_ERROR(tsr_from_dlpack(&p.managed, NULL, &t), TSR_ERR_DTYPE, "lane");
    producer_init(&p, buf, kDLFloat, 8);
    CHECK_ERROR(tsr_from_dlpack(&p.managed, NULL, &t), TSR_ERR_DTYPE, "code 2 with 8 bits");
    producer_init(&p, buf, kDLFloat, 32);
    p.managed.dl_tensor.ndim = 17;
    CHECK_ERROR(tsr_from_dlpack(&p.managed, NULL, &t), TSR_ERR_SHAPE, "ndim 17");
    producer_init(&p, buf, kDLFloat, 32);
    p.managed.dl_tensor.byte_offset = 2;
    CHECK_ERROR(tsr_from_dlpack(&p.managed, NULL, &t), TSR_ERR_INVALID_ARGUMENT, "not aligned");
    producer_init(&p, NULL, kDLFloat, 32);
    CHECK_ERROR(tsr_from_dlpack(&p.managed, NULL, &t), TSR_ERR_INVALID_ARGUMENT, "data is NULL");
    CHECK_ERROR(tsr_from_dlpack(NULL, NULL, &t), TSR_ERR_INVALID_ARGUMENT, "managed");
    CHECK_TRUE(t == NULL);
    CHECK_INT(p.deletes, 0);
}

static void round_trip_shares_storage(void)
{
    int64_t shape[1] = {3};
    float v[3] = {1, 2, 3};
    tsr_tensor *a = make_f32(1, shape, v, 3), *b = NULL;
    DLManagedTensor *m = NULL;
    CHECK_OK(tsr_to_dlpack(a, &m));
    CHECK_OK(tsr_from_dlpack(m, NULL, &b));
    CHECK_OK(tsr_fill_(b, tsr_scalar_float(5)));
    float back[3] = {0};
    CHECK_OK(tsr_to_host(a, back, sizeof back));
    CHECK_DOUBLE(back[2], 5.0, 0);
    tsr_tensor_release(a);
    tsr_tensor_release(b); /* runs m's deleter, which drops the last reference to a */
}

int main(void)
{
    RUN_TEST(blob_shares_memory_and_calls_the_deleter_once);
    RUN_TEST(blob_takes_strides);
    RUN_TEST(blob_refuses_bad_input);
    RUN_TEST(to_dlpack_writes_every_dtype);
    RUN_TEST(to_dlpack_writes_view_offset_and_strides);
    RUN_TEST(to_dlpack_refuses_bad_input);
    RUN_TEST(from_dlpack_wraps_and_deletes_once);
    RUN_TEST(from_dlpack_reads_bool_bfloat16_complex);
    RUN_TEST(from_dlpack_refuses_bad_input_and_keeps_ownership);
    RUN_TEST(round_trip_shares_storage);
    return check_summary("test_dlpack");
}
