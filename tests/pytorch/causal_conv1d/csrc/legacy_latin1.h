/* Constantes de légende: écrit par François Müller, encodé en ISO-8859-1. */
#pragma once
#include <cuda_runtime.h>

// « fenêtre » maximale du noyau
constexpr int kMaxWidth = 4;
inline const char *legacy_name() { return "café"; }
