/* test_os_cpu.c: the default job count follows the CPUs the process may run on (taskset, a
 * container's CPU set), not the CPUs online. */
#define _GNU_SOURCE 1
#include <sched.h>

#include "harness.h"
#include "os.h"

TEST(os_cpu_count_follows_affinity)
{
    cpu_set_t old, one;
    CHECK(sched_getaffinity(0, sizeof old, &old) == 0);
    CHECK(os_cpu_count() == CPU_COUNT(&old));
    size_t cpu = CPU_SETSIZE;
    for (size_t i = 0; i < CPU_SETSIZE && cpu == CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &old))
            cpu = i;
    CHECK(cpu < CPU_SETSIZE);
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
    int n = os_cpu_count();
    sched_setaffinity(0, sizeof old, &old);
    CHECK(n == 1);
}
