"""Static kernel data (syscall tables) kept as generated files, loaded lazily."""
