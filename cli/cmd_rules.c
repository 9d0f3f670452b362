/* cmd_rules.c: hipport rules: the list of check rules, or one rule's page. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"

/* The severity a rule gets under the targets (wave64 rules are notes on wave32-only lists). */
static hp_severity effective(const hp_rule_info *ri, int wave64)
{
    return ri->wave64 && !wave64 ? HP_SEV_NOTE : ri->severity;
}

/* The one operand: the rule to explain. */
static int rule_operand(opt_state *s, const opt *o, const char *v)
{
    const char **want = o->dest;
    if (*want)
        return opt_usage(s, "one rule at a time");
    *want = v;
    return OPT_CONTINUE;
}

int cmd_rules(int argc, char **argv)
{
    const char *cmd = "rules";
    const char *targets = NULL, *want = NULL;
    const opt options[] = {
        OPT_STRING(0, "target", "LIST", &targets,
                   "show severities for these GPU targets (as check --target)"),
        OPT_CALL('h', "help", NULL, cli_opt_help, NULL, "show this help"),
        OPT_END(),
    };
    const opt operand = OPT_CALL(0, NULL, NULL, rule_operand, &want, NULL);
    opt_state os;
    opt_init(&os, argc, argv, cmd);
    int rc = opt_parse(&os, options, &operand);
    if (rc != OPT_CONTINUE)
        return rc;
    if (targets) {
        hp_check_opts o;
        hp_check_opts_init(&o);
        o.targets = targets;
        char why[256];
        if (hp_check_opts_validate(&o, why, (ptrdiff_t)sizeof why) != HP_OK)
            return cli_usage(cmd, "%s", why);
    }
    if (want) {
        char idbuf[32];
        size_t n = strlen(want);
        if (n >= sizeof idbuf)
            return cli_usage(cmd, "unknown rule '%s'", want);
        for (size_t i = 0; i <= n; i++)
            idbuf[i] = (char)(want[i] >= 'a' && want[i] <= 'z' ? want[i] - 'a' + 'A' : want[i]);
        int idx = hp_rule_find(idbuf);
        if (idx < 0)
            return cli_usage(cmd, "unknown rule '%s'", want);
        hp_rule_info ri;
        hp_rule_get(idx, &ri);
        const char *doc = hp_rule_doc(ri.id);
        if (doc) {
            fputs(doc, stdout);
            if (doc[0] && doc[strlen(doc) - 1] != '\n')
                fputc('\n', stdout);
        } else {
            printf("# %s: %s\n", ri.id, ri.title);
        }
        printf("\nSeverity: %s", hp_severity_name(ri.severity));
        if (ri.wave64)
            printf(" (a note when every target is wave32, gfx10 or newer)");
        if (strcmp(ri.languages, "system") == 0)
            printf(". Reported by hipport doctor, about this machine.\n");
        else
            printf(". Languages: %s. Silence one line with: // hipport-ignore: %s\n",
                   ri.languages, ri.id);
        return EXIT_OK;
    }
    int w64 = hp_check_wave64(targets) != 0;
    for (int i = 0; i < hp_rule_count(); i++) {
        hp_rule_info ri;
        hp_rule_get(i, &ri);
        printf("%-8s %-8s %s\n", ri.id, hp_severity_name(effective(&ri, w64)), ri.title);
    }
    return EXIT_OK;
}
