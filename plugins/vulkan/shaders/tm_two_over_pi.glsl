// The binary expansion of 2/pi, 32 bits at a time, most significant first:
// 1280 bits, enough for Payne-Hanek reduction of any float64 (exponent up to
// 1023 needs bits up to about 1023 + 192). Shared by tm_math_f32.glsl and
// tm_math_f64.glsl, in GLSL and in C.
#ifndef TM_TWO_OVER_PI_GLSL
#define TM_TWO_OVER_PI_GLSL

uint tm_two_over_pi_word(int i)
{
    switch (i) {
    case 0: return 0xa2f9836eu;
    case 1: return 0x4e441529u;
    case 2: return 0xfc2757d1u;
    case 3: return 0xf534ddc0u;
    case 4: return 0xdb629599u;
    case 5: return 0x3c439041u;
    case 6: return 0xfe5163abu;
    case 7: return 0xdebbc561u;
    case 8: return 0xb7246e3au;
    case 9: return 0x424dd2e0u;
    case 10: return 0x06492eeau;
    case 11: return 0x09d1921cu;
    case 12: return 0xfe1deb1cu;
    case 13: return 0xb129a73eu;
    case 14: return 0xe88235f5u;
    case 15: return 0x2ebb4484u;
    case 16: return 0xe99c7026u;
    case 17: return 0xb45f7e41u;
    case 18: return 0x3991d639u;
    case 19: return 0x835339f4u;
    case 20: return 0x9c845f8bu;
    case 21: return 0xbdf9283bu;
    case 22: return 0x1ff897ffu;
    case 23: return 0xde05980fu;
    case 24: return 0xef2f118bu;
    case 25: return 0x5a0a6d1fu;
    case 26: return 0x6d367ecfu;
    case 27: return 0x27cb09b7u;
    case 28: return 0x4f463f66u;
    case 29: return 0x9e5fea2du;
    case 30: return 0x7527bac7u;
    case 31: return 0xebe5f17bu;
    case 32: return 0x3d0739f7u;
    case 33: return 0x8a5292eau;
    case 34: return 0x6bfb5fb1u;
    case 35: return 0x1f8d5d08u;
    case 36: return 0x56033046u;
    case 37: return 0xfc7b6babu;
    case 38: return 0xf0cfbc20u;
    case 39: return 0x9af4361du;
    }
    return 0u;
}

#endif
