/* The named elementwise functions (tsr_exp, tsr_pow, tsr_exp_, ...) are
 * generated from TSR_UNARY_OP_LIST and TSR_BINARY_OP_LIST; this test walks
 * the same lists, so an op added to a list is tested without a new line:
 * each named function must give tsr_unary / tsr_binary's (or tsr_unary_ /
 * tsr_binary_'s) result bit for bit, and the lists must hold exactly the
 * ops the generic entry points accept. */
#include "check.h"

#include <stdlib.h>

static const tsr_dtype candidate_dtypes[] = {TSR_FLOAT32, TSR_INT32, TSR_BOOL};
enum { CANDIDATES = sizeof candidate_dtypes / sizeof candidate_dtypes[0], N = 4 };

static tsr_tensor *input(tsr_dtype dtype, int which)
{
    static const double values[2][N] = {{0.5, -1.25, 2.0, 0.75}, {1.5, 3.0, -0.5, 2.0}};
    tsr_tensor *wide = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(values[which], sizeof values[which], 1, (int64_t[]){N}, TSR_FLOAT64,
                           NULL, &wide));
    CHECK_OK(tsr_to_dtype(wide, dtype, &t));
    tsr_tensor_release(wide);
    return t;
}

/* Same dtype, shape and bytes. */
static bool same_tensor(const tsr_tensor *a, const tsr_tensor *b)
{
    if (!a || !b || tsr_tensor_dtype(a) != tsr_tensor_dtype(b) ||
        tsr_tensor_numel(a) != tsr_tensor_numel(b) || tsr_tensor_ndim(a) != tsr_tensor_ndim(b))
        return false;
    size_t bytes = (size_t)tsr_tensor_numel(a) * tsr_dtype_size(tsr_tensor_dtype(a));
    unsigned char *x = calloc(1, bytes + 1), *y = calloc(1, bytes + 1);
    bool same = x && y && tsr_to_host(a, x, bytes) == TSR_OK && tsr_to_host(b, y, bytes) == TSR_OK &&
                memcmp(x, y, bytes) == 0;
    free(x);
    free(y);
    return same;
}

/* ---- out of place ----------------------------------------------------- */

typedef tsr_status (*unary_fn)(const tsr_tensor *, tsr_tensor **);
typedef tsr_status (*binary_fn)(const tsr_tensor *, const tsr_tensor *, tsr_tensor **);

static void check_unary(const char *name, tsr_op op, unary_fn fn)
{
    bool ran = false;
    for (int d = 0; d < CANDIDATES && !ran; d++) {
        tsr_tensor *t = input(candidate_dtypes[d], 0), *want = NULL, *got = NULL;
        if (tsr_unary(op, t, &want) == TSR_OK) {
            ran = true;
            CHECK_OK(fn(t, &got));
            if (!same_tensor(got, want))
                CHECK_FAIL_("tsr_%s differs from tsr_unary(%s)", name, tsr_op_name(op));
        }
        tsr_tensor_release(t);
        tsr_tensor_release(want);
        tsr_tensor_release(got);
    }
    if (!ran)
        CHECK_FAIL_("tsr_unary(%s) ran on none of the test's dtypes", name);
    check_count++;
}

static void check_binary(const char *name, tsr_op op, binary_fn fn)
{
    bool ran = false;
    for (int d = 0; d < CANDIDATES && !ran; d++) {
        tsr_tensor *a = input(candidate_dtypes[d], 0), *b = input(candidate_dtypes[d], 1);
        tsr_tensor *want = NULL, *got = NULL;
        if (tsr_binary(op, tsr_operand_tensor(a), tsr_operand_tensor(b), &want) == TSR_OK) {
            ran = true;
            CHECK_OK(fn(a, b, &got));
            if (!same_tensor(got, want))
                CHECK_FAIL_("tsr_%s differs from tsr_binary(%s)", name, tsr_op_name(op));
        }
        tsr_tensor_release(a);
        tsr_tensor_release(b);
        tsr_tensor_release(want);
        tsr_tensor_release(got);
    }
    if (!ran)
        CHECK_FAIL_("tsr_binary(%s) ran on none of the test's dtypes", name);
    check_count++;
}

/* ---- in place ---------------------------------------------------------- */

typedef tsr_status (*unary_ip_fn)(tsr_tensor *);
typedef tsr_status (*binary_ip_fn)(tsr_tensor *, tsr_operand);

static void check_unary_ip(const char *name, tsr_op op, unary_ip_fn fn)
{
    bool ran = false;
    for (int d = 0; d < CANDIDATES && !ran; d++) {
        tsr_tensor *want = input(candidate_dtypes[d], 0), *got = input(candidate_dtypes[d], 0);
        if (tsr_unary_(op, want) == TSR_OK) {
            ran = true;
            CHECK_OK(fn(got));
            if (!same_tensor(got, want))
                CHECK_FAIL_("tsr_%s_ differs from tsr_unary_(%s)", name, tsr_op_name(op));
        }
        tsr_tensor_release(want);
        tsr_tensor_release(got);
    }
    if (!ran)
        CHECK_FAIL_("tsr_unary_(%s) ran on none of the test's dtypes", name);
    check_count++;
}

static void check_binary_ip(const char *name, tsr_op op, binary_ip_fn fn)
{
    bool ran = false;
    for (int d = 0; d < CANDIDATES && !ran; d++) {
        tsr_tensor *want = input(candidate_dtypes[d], 0), *got = input(candidate_dtypes[d], 0);
        tsr_tensor *other = input(candidate_dtypes[d], 1);
        if (tsr_binary_(op, want, tsr_operand_tensor(other)) == TSR_OK) {
            ran = true;
            CHECK_OK(fn(got, tsr_operand_tensor(other)));
            if (!same_tensor(got, want))
                CHECK_FAIL_("tsr_%s_ differs from tsr_binary_(%s)", name, tsr_op_name(op));
        }
        tsr_tensor_release(want);
        tsr_tensor_release(got);
        tsr_tensor_release(other);
    }
    if (!ran)
        CHECK_FAIL_("tsr_binary_(%s) ran on none of the test's dtypes", name);
    check_count++;
}

/* ---- the lists themselves ------------------------------------------------ */

#define RUN_UNARY_PLAIN(name, op) check_unary(#name, TSR_OP_##op, tsr_##name);
#define RUN_UNARY_OWN(name, op)
#define RUN_UNARY(name, op, form, inplace) RUN_UNARY_##form(name, op)
#define RUN_BINARY_PLAIN(name, op) check_binary(#name, TSR_OP_##op, tsr_##name);
#define RUN_BINARY_OWN(name, op)
#define RUN_BINARY(name, op, form, inplace) RUN_BINARY_##form(name, op)
#define RUN_UNARY_IP_IP(name, op) check_unary_ip(#name, TSR_OP_##op, tsr_##name##_);
#define RUN_UNARY_IP_OWN_IP(name, op)
#define RUN_UNARY_IP_NO_IP(name, op)
#define RUN_UNARY_IP(name, op, form, inplace) RUN_UNARY_IP_##inplace(name, op)
#define RUN_BINARY_IP_IP(name, op) check_binary_ip(#name, TSR_OP_##op, tsr_##name##_);
#define RUN_BINARY_IP_OWN_IP(name, op)
#define RUN_BINARY_IP_NO_IP(name, op)
#define RUN_BINARY_IP(name, op, form, inplace) RUN_BINARY_IP_##inplace(name, op)

/* Per op id: 1 if in the unary list, 2 if in the binary list; in-place
 * column: 1 when the list says an in-place form exists. */
static int listed[TSR_OP_COUNT];
static int listed_inplace[TSR_OP_COUNT];

#define MARK_IP_IP 1
#define MARK_IP_OWN_IP 1
#define MARK_IP_NO_IP 0
#define MARK_UNARY(name, op, form, inplace)                                                \
    listed[TSR_OP_##op] = 1, listed_inplace[TSR_OP_##op] = MARK_IP_##inplace;
#define MARK_BINARY(name, op, form, inplace)                                               \
    listed[TSR_OP_##op] = 2, listed_inplace[TSR_OP_##op] = MARK_IP_##inplace;

/* The lists hold exactly the ops tsr_unary / tsr_binary accept (they
 * refuse every other op id with "is not a unary/binary elementwise op"),
 * and the in-place column agrees with tsr_unary_ / tsr_binary_. */
static void test_lists_are_complete(void)
{
    TSR_UNARY_OP_LIST(MARK_UNARY)
    TSR_BINARY_OP_LIST(MARK_BINARY)
    tsr_tensor *t = input(TSR_FLOAT32, 0);
    for (int op = 0; op < TSR_OP_COUNT; op++) {
        tsr_tensor *out = NULL, *self = input(TSR_FLOAT32, 0);
        bool unary = !(tsr_unary((tsr_op)op, t, &out) != TSR_OK &&
                       strstr(tsr_last_error(), "is not a unary elementwise op"));
        tsr_tensor_release(out);
        out = NULL;
        bool binary = !(tsr_binary((tsr_op)op, tsr_operand_tensor(t), tsr_operand_tensor(t), &out) !=
                            TSR_OK &&
                        strstr(tsr_last_error(), "is not a binary elementwise op"));
        tsr_tensor_release(out);
        bool inplace_ok;
        if (unary)
            inplace_ok = !(tsr_unary_((tsr_op)op, self) != TSR_OK &&
                           strstr(tsr_last_error(), "has no in-place form"));
        else
            inplace_ok = binary && !(tsr_binary_((tsr_op)op, self, tsr_operand_tensor(t)) != TSR_OK &&
                                     strstr(tsr_last_error(), "has no in-place form"));
        tsr_tensor_release(self);
        check_count++;
        if (listed[op] != (unary ? 1 : binary ? 2 : 0))
            CHECK_FAIL_("op %s: tsr_unary/tsr_binary accept it as %s, the lists say %s",
                        tsr_op_name((tsr_op)op), unary ? "unary" : binary ? "binary" : "neither",
                        listed[op] == 1 ? "unary" : listed[op] == 2 ? "binary" : "absent");
        if ((unary || binary) && listed_inplace[op] != (int)inplace_ok)
            CHECK_FAIL_("op %s: its in-place form %s, the list says otherwise",
                        tsr_op_name((tsr_op)op), inplace_ok ? "exists" : "does not exist");
    }
    tsr_tensor_release(t);
}

int main(void)
{
    test_lists_are_complete();
    TSR_UNARY_OP_LIST(RUN_UNARY)
    TSR_BINARY_OP_LIST(RUN_BINARY)
    TSR_UNARY_OP_LIST(RUN_UNARY_IP)
    TSR_BINARY_OP_LIST(RUN_BINARY_IP)
    return check_summary("test_elementwise_named");
}
