/* tsr_exp_, tsr_mul_, ...: the in-place forms marked IP in the public lists
 * TSR_UNARY_OP_LIST and TSR_BINARY_OP_LIST (tessera/elementwise_named.h). */
#include "tessera/tessera.h"

#define UNARY_DEF_IP(name, op)                                                           \
    tsr_status tsr_##name##_(tsr_tensor *self)                                           \
    {                                                                                    \
        return tsr_unary_(TSR_OP_##op, self);                                            \
    }
#define UNARY_DEF_OWN_IP(name, op)
#define UNARY_DEF_NO_IP(name, op)
#define UNARY_DEF(name, op, form, inplace) UNARY_DEF_##inplace(name, op)

#define BINARY_DEF_IP(name, op)                                                          \
    tsr_status tsr_##name##_(tsr_tensor *self, tsr_operand other)                        \
    {                                                                                    \
        return tsr_binary_(TSR_OP_##op, self, other);                                    \
    }
#define BINARY_DEF_OWN_IP(name, op)
#define BINARY_DEF_NO_IP(name, op)
#define BINARY_DEF(name, op, form, inplace) BINARY_DEF_##inplace(name, op)

TSR_UNARY_OP_LIST(UNARY_DEF)
TSR_BINARY_OP_LIST(BINARY_DEF)
