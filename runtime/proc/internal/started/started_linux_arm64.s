#include "textflag.h"

// func clockGettime(id int64, ts *[2]int64) int64
TEXT ·clockGettime(SB),NOSPLIT,$0-24
	MOVD	id+0(FP), R0 // clock_gettime(id, ts)
	MOVD	ts+8(FP), R1
	MOVD	$113, R8
	SVC
	MOVD	R0, ret+16(FP)
	RET
