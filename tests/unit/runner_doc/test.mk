runner_doc_LIBGEMLAB := 1
