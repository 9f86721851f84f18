// OpenSSL's libcrypto (Debian: libssl-dev), for the SHA-256 digests of SwitchyardHTTP's downloads on Linux.
#include <openssl/evp.h>
