// readline.h uses FILE, so stdio.h must come first.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
