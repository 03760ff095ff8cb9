/* The "check": "identity" judgement (golden/identity.c): the library's own
 * factors pass; the same factors with a column's sign flipped (another
 * gauge) pass; a wrong factor, a wrong |diag R| and a non-triangular R fail. */
#include <stdlib.h>
#include <string.h>

#include <tessera/tessera.h>

#include "conf_check.h"
#include "golden/identity.h"

static tsr_tensor *matrix(int64_t m, int64_t n, double shift)
{
    double v[64];
    for (int64_t i = 0; i < m * n; i++)
        v[i] = (double)((i * 7) % 5) - 2.0 + (i % (n + 1) == 0 ? shift : 0.0);
    tsr_tensor *t = NULL;
    tsr_from_host(v, (size_t)(m * n) * sizeof(double), 2, (int64_t[]){m, n}, TSR_FLOAT64, NULL, &t);
    return t;
}

/* t with column `col` negated (or every element scaled when col < 0). */
static tsr_tensor *altered(const tsr_tensor *t, int64_t col, double factor)
{
    int64_t m = tsr_tensor_shape(t)[0], n = tsr_tensor_shape(t)[1];
    double v[64];
    tsr_to_host(t, v, (size_t)(m * n) * sizeof(double));
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            if (col < 0 || j == col)
                v[i * n + j] *= factor;
    tsr_tensor *r = NULL;
    tsr_from_host(v, (size_t)(m * n) * sizeof(double), 2, tsr_tensor_shape(t), TSR_FLOAT64, NULL,
                  &r);
    return r;
}

/* Judges q and r as linalg_qr's outputs for a, against expected_r. */
static conf_compare_status judge_qr(tsr_tensor *a, tsr_tensor *q, tsr_tensor *r,
                                    tsr_tensor *expected_r, char *msg, size_t cap)
{
    conf_input spec = {.name = "A", .kind = CONF_INPUT_TENSOR};
    conf_value value = {.spec = &spec, .tensor = a};
    conf_case c = {
        .op = "linalg_qr", .has_rtol = true, .has_atol = true, .rtol = 1e-10, .atol = 1e-10};
    tsr_tensor *outs[2] = {q, r}, *expected[2] = {q, expected_r};
    conf_call call = {.c = &c, .values = &value, .nvalues = 1, .outputs = outs, .noutputs = 2};
    bool gauge[2] = {true, true};
    return conf_identity_compare(&call, expected, 2, gauge, msg, cap);
}

static void qr_identities_accept_any_gauge_and_refuse_wrong_factors(void)
{
    tsr_tensor *a = matrix(4, 3, 3.0), *q = NULL, *r = NULL;
    CHECK(tsr_linalg_qr(a, "reduced", &q, &r) == TSR_OK, "%s", tsr_last_error());
    char msg[512];
    conf_compare_status cs = judge_qr(a, q, r, r, msg, sizeof msg);
    CHECK(cs == CONF_COMPARE_EQUAL, "own factors: %s", msg);
    /* Q's column 1 and R's row 1 negated: another gauge, the same A */
    tsr_tensor *q2 = altered(q, 1, -1.0), *rt = NULL, *rt2 = NULL, *r2 = NULL;
    tsr_transpose(r, 0, 1, &rt);
    tsr_tensor *rtc = NULL;
    tsr_contiguous(rt, &rtc);
    rt2 = altered(rtc, 1, -1.0);
    tsr_transpose(rt2, 0, 1, &r2);
    tsr_tensor *r2c = NULL;
    tsr_contiguous(r2, &r2c);
    cs = judge_qr(a, q2, r2c, r, msg, sizeof msg);
    CHECK(cs == CONF_COMPARE_EQUAL, "flipped gauge: %s", msg);
    /* Q scaled: Q^H Q is no longer I (and QR no longer A) */
    tsr_tensor *q3 = altered(q, -1, 1.5);
    cs = judge_qr(a, q3, r, r, msg, sizeof msg);
    CHECK(cs == CONF_COMPARE_DIFFERENT, "a scaled Q passed");
    /* the expected |diag R| differs */
    tsr_tensor *r4 = altered(r, 0, 2.0);
    cs = judge_qr(a, q, r, r4, msg, sizeof msg);
    CHECK(cs == CONF_COMPARE_DIFFERENT && strstr(msg, "R_ii"), "a wrong |diag R| passed: %s", msg);
    tsr_tensor *all[] = {a, q, r, q2, rt, rtc, rt2, r2, r2c, q3, r4};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
}

int main(void)
{
    qr_identities_accept_any_gauge_and_refuse_wrong_factors();
    fprintf(stderr, "test_identity: %d failures\n", failures);
    return failures ? 1 : 0;
}
