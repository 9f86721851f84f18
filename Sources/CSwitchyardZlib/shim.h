// zlib from the system (Debian: zlib1g-dev; installed by Scripts/install-system-packages.sh).
#include <zlib.h>
