/* cb_mpit: Open MPI's control variables (MCA parameters) through MPI_T, the
 * MPI-3 tool interface: looked up by name, read as an int or a string, an
 * int written. Every call needs an open MPI_T session (cb_mpit_open); close
 * it soon: one left open keeps Open MPI's pml monitoring from printing its
 * totals at MPI_Finalize. */
#ifndef CB_MPIT_H
#define CB_MPIT_H

#include <stddef.h>

/* Opens an MPI_T session. Returns 0, or -1 when MPI_T is not available. */
int cb_mpit_open(void);

/* Closes the session cb_mpit_open opened. */
void cb_mpit_close(void);

/* The index of the control variable `name`, or -1 when there is none. */
int cb_mpit_index(const char *name);

/* Reads (write 0) or writes (write 1) the int control variable idx through
 * *v. Returns 0, or -1 (the variable is not an int, or cannot be written). */
int cb_mpit_int(int idx, int write, int *v);

/* The string control variable `name` into out[len] (cut to fit; "" when it
 * is unset). Returns 0, or -1 when there is no such string variable. */
int cb_mpit_str(const char *name, char *out, size_t len);

#endif
