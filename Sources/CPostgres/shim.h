#ifndef EKI_CPOSTGRES_SHIM_H
#define EKI_CPOSTGRES_SHIM_H
/* libpq (Debian libpq-dev): connections (PQconnectdb), statements with bound parameters
   (PQexecParams), results and errors. EkiPostgres is its only caller. */
#include <libpq-fe.h>
#endif
