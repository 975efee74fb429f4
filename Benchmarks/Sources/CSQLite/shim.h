// The system SQLite amalgamation header (libsqlite3-dev on Debian/Ubuntu).
#include <sqlite3.h>
