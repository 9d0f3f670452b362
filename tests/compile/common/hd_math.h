// common/hd_math.h: a small vector type usable from host C++ and from CUDA device code.
#pragma once

#ifdef __CUDACC__
#define HD __host__ __device__
#define HD_INLINE __host__ __device__ __forceinline__
#else
#define HD
#define HD_INLINE inline
#endif

struct Vec3 {
    float x, y, z;
};

HD_INLINE Vec3 operator+(Vec3 a, Vec3 b) { return Vec3{a.x + b.x, a.y + b.y, a.z + b.z}; }
HD_INLINE Vec3 operator*(Vec3 a, float s) { return Vec3{a.x * s, a.y * s, a.z * s}; }
HD_INLINE Vec3 lerp(Vec3 a, Vec3 b, float t) { return a * (1.f - t) + b * t; }

inline const char *compilerName()
{
#if defined(__CUDACC__) && defined(__CUDACC_VER_MAJOR__)
    return __CUDACC_VER_MAJOR__ >= 12 ? "nvcc 12+" : "nvcc";
#elif defined(__CUDACC__)
    return "a CUDA compiler";
#else
    return "a host compiler";
#endif
}
