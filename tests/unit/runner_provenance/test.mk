runner_provenance_LIBGEMLAB := 1
