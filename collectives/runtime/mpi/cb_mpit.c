/* cb_mpit: Open MPI's control variables through MPI_T (contract in
 * cb_mpit.h). */
#include "cb_mpit.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cb_mpit_open(void)
{
	int prov;

	return MPI_T_init_thread(MPI_THREAD_SINGLE, &prov) == MPI_SUCCESS ? 0 : -1;
}

void cb_mpit_close(void)
{
	MPI_T_finalize();
}

int cb_mpit_index(const char *name)
{
	int idx;

	return MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS ? idx : -1;
}

int cb_mpit_int(int idx, int write, int *v)
{
	MPI_T_cvar_handle h;
	long long buf[2] = { 0, 0 }; /* room for any scalar type */
	int count, rc;

	if (idx < 0 || MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS)
		return -1;
	if (write) {
		rc = MPI_T_cvar_write(h, v);
	} else {
		rc = MPI_T_cvar_read(h, buf);
		memcpy(v, buf, sizeof(*v));
	}
	MPI_T_cvar_handle_free(&h);
	return rc == MPI_SUCCESS ? 0 : -1;
}

int cb_mpit_str(const char *name, char *out, size_t len)
{
	char vname[256], desc[8], *buf;
	int idx = cb_mpit_index(name), nl = sizeof(vname), dl = sizeof(desc), verb, bind, scope;
	int count = 0, rc = -1;
	MPI_Datatype dt;
	MPI_T_enum et;
	MPI_T_cvar_handle h;

	out[0] = '\0';
	if (idx < 0 || MPI_T_cvar_get_info(idx, vname, &nl, &verb, &dt, &et, desc, &dl, &bind,
					   &scope) != MPI_SUCCESS || dt != MPI_CHAR)
		return -1;
	if (MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS)
		return -1;
	buf = calloc((size_t)(count > 0 ? count : 1) + 1, 1); /* count: the chars it holds */
	if (buf && MPI_T_cvar_read(h, buf) == MPI_SUCCESS) {
		snprintf(out, len, "%s", buf);
		rc = 0;
	}
	free(buf);
	MPI_T_cvar_handle_free(&h);
	return rc;
}
