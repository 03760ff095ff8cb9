/* Type promotion checked against the table PyTorch generated
 * (tests/data/promotion.json, written by golden/gen_promotion.py). */
#include "check_json.h"

#include <stdlib.h>

static cJSON *load_table(void)
{
    return check_load_json(TSR_TEST_DATA_DIR "/promotion.json");
}

/* tessera has no complex32: PyTorch's float16-with-complex result maps to
 * complex64, the smallest complex dtype we have (docs/architecture.md). */
static tsr_dtype expected_dtype(const char *name)
{
    tsr_dtype d = TSR_DTYPE_COUNT;
    if (strcmp(name, "complex32") == 0)
        return TSR_COMPLEX64;
    if (tsr_dtype_from_name(name, &d) != TSR_OK)
        CHECK_FAIL_("unknown dtype %s in the table", name);
    return d;
}

static void promote_types_matches_pytorch(void)
{
    cJSON *root = load_table();
    const cJSON *table = cJSON_GetObjectItem(root, "promote_types");
    CHECK_INT(cJSON_GetArraySize(table), TSR_DTYPE_COUNT);
    for (int a = 0; a < TSR_DTYPE_COUNT && table; a++) {
        const cJSON *row = cJSON_GetArrayItem(table, a);
        for (int b = 0; b < TSR_DTYPE_COUNT; b++) {
            tsr_dtype got = TSR_DTYPE_COUNT;
            tsr_dtype want = expected_dtype(cJSON_GetArrayItem(row, b)->valuestring);
            CHECK_OK(tsr_promote_types((tsr_dtype)a, (tsr_dtype)b, &got));
            if (got != want)
                CHECK_FAIL_("promote_types(%s, %s) is %s, PyTorch gives %s",
                            tsr_dtype_name((tsr_dtype)a), tsr_dtype_name((tsr_dtype)b),
                            tsr_dtype_name(got), tsr_dtype_name(want));
        }
    }
    cJSON_Delete(root);
}

/* Builds the operand a table entry describes; *owned is the tensor to release. */
static tsr_operand make_operand(const cJSON *o, tsr_tensor **owned)
{
    const char *kind = cJSON_GetObjectItem(o, "kind")->valuestring;
    *owned = NULL;
    if (strcmp(kind, "scalar") == 0) {
        const char *type = cJSON_GetObjectItem(o, "type")->valuestring;
        const cJSON *v = cJSON_GetObjectItem(o, "value");
        if (strcmp(type, "bool") == 0)
            return tsr_operand_scalar(tsr_scalar_bool(cJSON_IsTrue(v)));
        if (strcmp(type, "int") == 0)
            return tsr_operand_scalar(tsr_scalar_int((int64_t)v->valuedouble));
        if (strcmp(type, "float") == 0)
            return tsr_operand_scalar(tsr_scalar_float(v->valuedouble));
        return tsr_operand_scalar(tsr_scalar_complex(cJSON_GetArrayItem(v, 0)->valuedouble,
                                                     cJSON_GetArrayItem(v, 1)->valuedouble));
    }
    tsr_dtype dtype = expected_dtype(cJSON_GetObjectItem(o, "dtype")->valuestring);
    int64_t two = 2;
    CHECK_OK(tsr_empty(strcmp(kind, "tensor") == 0 ? 1 : 0, &two, dtype, NULL, owned));
    return tsr_operand_tensor(*owned);
}

static void result_type_matches_pytorch_for_every_operand_pair(void)
{
    cJSON *root = load_table();
    const cJSON *entry;
    int compared = 0;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItem(root, "result_type"))
    {
        tsr_tensor *ta, *tb;
        tsr_operand ops[2] = {make_operand(cJSON_GetObjectItem(entry, "a"), &ta),
                              make_operand(cJSON_GetObjectItem(entry, "b"), &tb)};
        tsr_dtype got = TSR_DTYPE_COUNT;
        int st = tsr_result_type(ops, 2, &got);
        const cJSON *result = cJSON_GetObjectItem(entry, "result");
        char *desc = cJSON_PrintUnformatted(entry);
        if (result && (st != TSR_OK || got != expected_dtype(result->valuestring)))
            CHECK_FAIL_("%s: got %s (%s)", desc, st == TSR_OK ? tsr_dtype_name(got) : "error",
                        tsr_last_error());
        if (!result && st == TSR_OK)
            CHECK_FAIL_("%s: PyTorch raises, tessera gave %s", desc, tsr_dtype_name(got));
        free(desc);
        tsr_tensor_release(ta);
        tsr_tensor_release(tb);
        compared++;
    }
    CHECK_INT(compared, 784);
    cJSON_Delete(root);
}

int main(void)
{
    RUN_TEST(promote_types_matches_pytorch);
    RUN_TEST(result_type_matches_pytorch_for_every_operand_pair);
    return check_summary("test_promotion");
}
