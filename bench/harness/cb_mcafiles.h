/* cb_mcafiles: the Open MPI settings a launch took from MCA parameter files,
 * for the metadata ("mca_param_files"), where the library configuration
 * that collbench-compare and collbench-history match runs by is read from
 * them beside the environment (bench/format/cb_libconf.h).
 *
 * Open MPI 4.1 reads MCA parameters from the files its variable
 * mca_base_param_files lists (by default ~/.openmpi/mca-params.conf and the
 * system-wide openmpi-mca-params.conf; OMPI_MCA_mca_base_param_files or
 * mpirun's --am name others), the leftmost file winning, below the
 * environment; and from mca_base_override_param_file, above it. The file
 * names are read through MPI_T (what Open MPI resolved), the files parsed as
 * Open MPI parses them ("name = value" lines, '#' comments). */
#ifndef CB_MCAFILES_H
#define CB_MCAFILES_H

#include <jansson.h>

/* Finds, through an MPI_T session of its own, the files Open MPI reads
 * (what mca_base_param_files and mca_base_override_param_file hold; the
 * variables exist before MPI_Init). Call it before MPI_Init: Open MPI 4.1.4
 * crashes in a later MPI_Comm_free after an MPI_T session opened and closed
 * after MPI_Init when coll/monitoring wraps another coll component than
 * tuned (--mpi-traffic with coll_basic_priority 100, found by trying). */
void cb_mcafiles_before_init(void);

/* This process's parameter-file settings: {"files": [the files read, in
 * Open MPI's order], "settings": {"OMPI_MCA_<name>": value}, "override":
 * {...}}, names kept where the environment's would be recorded (cb_env.h),
 * names and values under cb_text's rule; the files are read now. JSON null
 * where cb_mcafiles_before_init found no list (no MPI_T, not Open MPI, or
 * it was not called); NULL only when out of memory. */
json_t *cb_mcafiles_collect(void);

#endif
