/* tsr_exp, tsr_pow, tsr_gt, ...: one function per op of the public lists
 * TSR_UNARY_OP_LIST and TSR_BINARY_OP_LIST (tessera/elementwise_named.h),
 * so that a new op in a list gets its name without further code. */
#include "tessera/tessera.h"

#define UNARY_DEF_PLAIN(name, op)                                                        \
    tsr_status tsr_##name(const tsr_tensor *t, tsr_tensor **out)                         \
    {                                                                                    \
        return tsr_unary(TSR_OP_##op, t, out);                                           \
    }
#define UNARY_DEF_OWN(name, op)
#define UNARY_DEF(name, op, form, inplace) UNARY_DEF_##form(name, op)

#define BINARY_DEF_PLAIN(name, op)                                                       \
    tsr_status tsr_##name(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)    \
    {                                                                                    \
        return tsr_binary(TSR_OP_##op, tsr_operand_tensor(a), tsr_operand_tensor(b), out); \
    }
#define BINARY_DEF_OWN(name, op)
#define BINARY_DEF(name, op, form, inplace) BINARY_DEF_##form(name, op)

TSR_UNARY_OP_LIST(UNARY_DEF)
TSR_BINARY_OP_LIST(BINARY_DEF)
