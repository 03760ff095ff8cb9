/* PyTorch's recorded answers, replayed against the plugin (torch_cases.c). */
#ifndef TSR_REFERENCE_TORCH_CASES_H
#define TSR_REFERENCE_TORCH_CASES_H

/* Every case of torch_cases.inc in three layouts; counts failing runs. */
void test_torch_cases(void);
/* The kernel table lists exactly PyTorch's supported triples, all flags set. */
void test_kernel_table_equals_pytorch_support(void);

#endif /* TSR_REFERENCE_TORCH_CASES_H */
