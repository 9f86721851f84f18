// SQLite 3 from the system (Debian: libsqlite3-dev; installed by Scripts/install-system-packages.sh).
#include <sqlite3.h>
