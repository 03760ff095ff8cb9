/* A first look at tessera: create tensors, compute on the default backend,
 * read the result back. */
#include <tessera/tessera.h>

#include <stdio.h>

#define CHECK(call)                                                                       \
    do {                                                                                  \
        if ((call) != TSR_OK) {                                                           \
            fprintf(stderr, "hello: %s\n", tsr_last_error());                             \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

static void print_matrix(const char *label, const float *v, int rows, int cols)
{
    printf("%s\n", label);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            printf(" %8.4f", v[r * cols + c]);
        printf("\n");
    }
}

int main(void)
{
    tsr_backend *backend;
    CHECK(tsr_backend_get(NULL, &backend));
    printf("backend: %s\n", tsr_backend_name(backend));

    int64_t shape[2] = {2, 3};
    const float a_values[6] = {1, 2, 3, 4, 5, 6};
    tsr_tensor *a, *b, *sum, *act, *scaled, *t;
    CHECK(tsr_from_host(a_values, sizeof a_values, 2, shape, TSR_FLOAT32, backend, &a));
    CHECK(tsr_arange(tsr_scalar_int(0), tsr_scalar_int(3), tsr_scalar_int(1), TSR_INT64, backend, &b));

    /* float32 [2,3] + int64 [3] broadcasts and promotes to float32 */
    CHECK(tsr_add(a, b, &sum));
    CHECK(tsr_gelu(sum, TSR_GELU_NONE, &act));
    CHECK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(act), tsr_operand_scalar(tsr_scalar_float(0.5)),
                     &scaled));
    CHECK(tsr_transpose(scaled, 0, 1, &t));

    float out[6];
    CHECK(tsr_to_host(t, out, sizeof out));
    print_matrix("gelu(a + arange(3)) * 0.5, transposed:", out, 3, 2);

    tsr_tensor *all[] = {a, b, sum, act, scaled, t};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tsr_tensor_release(all[i]);
    return 0;
}
