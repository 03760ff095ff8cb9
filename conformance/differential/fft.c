/* Differential draws for torch.fft's transforms: random ranks, dims, lengths
 * (padded or trimmed now and then) and norms, over finite values of moderate
 * size. A transform sums every point with every other through its passes,
 * so which results an infinity turns into NaN (inf - inf) depends on the
 * algorithm: backends agree on finite operands only, as the seeds' bound
 * says ("barring overflow"). */
#include "differential/draw_helpers.h"

static conf_value_spec finite(void)
{
    return conf_values_of(CONF_VALUES_FINITE);
}

static const char *const NORMS[] = {"backward", "ortho", "forward"};

static void draw_norm(conf_draft *d)
{
    if (pick(d, 0.7))
        conf_draft_arg_string(d, "norm", NORMS[range(d, 0, 2)]);
}

/* fft, ifft, rfft, irfft, hfft, ihfft(input, n, dim, norm). */
static bool draw_one_dim(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 3, false, finite(), &n, s);
    conf_draft_arg_int(d, "dim", conf_draft_dim(d, n));
    if (pick(d, 0.4))
        conf_draft_arg_int(d, "n", range(d, 1, 40));
    draw_norm(d);
    return true;
}

/* fftn and friends over a random set of dims, s now and then. */
static bool draw_n_dim(conf_draft *d)
{
    int n;
    int64_t shape[TSR_MAX_DIMS], dims[TSR_MAX_DIMS], s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 3, false, finite(), &n, shape);
    int count = (int)range(d, 1, n);
    for (int i = 0; i < count; i++)
        dims[i] = n - count + i - (pick(d, 0.5) ? n : 0); /* some negative */
    conf_draft_arg_int_list(d, "dim", count, dims);
    if (pick(d, 0.4)) {
        for (int i = 0; i < count; i++)
            s[i] = pick(d, 0.3) ? -1 : range(d, 1, 12);
        conf_draft_arg_int_list(d, "s", count, s);
    }
    draw_norm(d);
    return true;
}

const conf_diff_op conf_diff_draws_fft[] = {
    {"fft_fft", draw_one_dim, 0},    {"fft_ifft", draw_one_dim, 0},
    {"fft_rfft", draw_one_dim, 0},   {"fft_irfft", draw_one_dim, 0},
    {"fft_hfft", draw_one_dim, 0},   {"fft_ihfft", draw_one_dim, 0},
    {"fft_fftn", draw_n_dim, 0},     {"fft_ifftn", draw_n_dim, 0},
    {"fft_rfftn", draw_n_dim, 0},    {"fft_irfftn", draw_n_dim, 0},
    {"fft_hfftn", draw_n_dim, 0},    {"fft_ihfftn", draw_n_dim, 0},
};
const size_t conf_diff_draws_fft_count = sizeof conf_diff_draws_fft / sizeof conf_diff_draws_fft[0];
