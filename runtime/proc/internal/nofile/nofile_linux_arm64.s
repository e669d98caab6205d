#include "textflag.h"

// func prlimitNofile(lim *[2]uint64) int64
TEXT ·prlimitNofile(SB),NOSPLIT,$0-16
	MOVD	$0, R0 // prlimit64(0, RLIMIT_NOFILE, NULL, lim)
	MOVD	$7, R1
	MOVD	$0, R2
	MOVD	lim+0(FP), R3
	MOVD	$261, R8
	SVC
	MOVD	R0, ret+8(FP)
	RET
