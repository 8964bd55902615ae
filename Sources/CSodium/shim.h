#ifndef EKI_CSODIUM_SHIM_H
#define EKI_CSODIUM_SHIM_H
/* libsodium (Debian libsodium-dev): Argon2id password hashes (crypto_pwhash_str*), random bytes,
   BLAKE2b (crypto_generichash) and constant-time comparison. Its parameters are read through its
   own functions (crypto_pwhash_opslimit_interactive() …), not its macros. */
#include <sodium.h>
#endif
