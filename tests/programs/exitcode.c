/* Exits with the status given as argv[1], for exit-code pass-through tests. */
#include <stdlib.h>

int main(int argc, char **argv)
{
    return argc > 1 ? atoi(argv[1]) : 0;
}
