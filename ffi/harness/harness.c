/*
 * A stand-in for the handful of GamesmanClassic core services a Topitop
 * module calls, and drivers that use the module only through its C ABI, the
 * way the core's tier solver, text interface and --interact mode do.
 *
 * The hash window follows the core's rules: for tier T the window lists
 * kBadTier (0 positions), then T, then T's other children, each range after
 * the previous one, and gNumberOfPositions is the total. Misuse that the
 * real core would answer with exit() aborts here, so a test notices.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gamesman_topitop.h"

/* ---- core globals ---- */
BOOLEAN gHashWindowInitialized = TOPITOP_FALSE;
TIER *gTierInHashWindow = NULL;
TIERPOSITION *gMaxPosOffset = NULL;
int gNumTiersInHashWindow = 0;
POSITION (*gCanonicalPosition)(POSITION) = NULL;
void (*gPositionToStringFunPtr)(POSITION, char *) = NULL;
TIERLIST *(*gTierChildrenFunPtr)(TIER) = NULL;
TIERPOSITION (*gNumberOfTierPositionsFunPtr)(TIER) = NULL;
STRING (*gTierToStringFunPtr)(TIER) = NULL;
BOOLEAN (*gIsLegalFunPtr)(POSITION) = NULL;
BOOLEAN kSupportsTierGamesman = TOPITOP_FALSE;
BOOLEAN kExclusivelyTierGamesman = TOPITOP_FALSE;
TIER gInitialTier = 12345;
TIERPOSITION gInitialTierPosition = 12345;
BOOLEAN gIsInteract = TOPITOP_FALSE;
BOOLEAN gLoadTierdbArray = TOPITOP_TRUE;

static const TIER kBadTier = ~(TIER)0;
static long live_nodes = 0;
static int core_failures = 0;

static void core_fail(const char *what) {
    fprintf(stderr, "harness core: %s\n", what);
    core_failures++;
    abort();
}

/* ---- allocation and lists ---- */
GENERIC_PTR SafeMalloc(size_t size) {
    void *p = malloc(size ? size : 1);
    if (p == NULL) core_fail("out of memory");
    return p;
}

void SafeFree(GENERIC_PTR pointer) {
    if (pointer == NULL) core_fail("SafeFree(NULL)");
    free(pointer);
}

MOVELIST *CreateMovelistNode(MOVE move, MOVELIST *next) {
    MOVELIST *node = SafeMalloc(sizeof *node);
    node->move = move;
    node->next = next;
    live_nodes++;
    return node;
}

TIERLIST *CreateTierlistNode(TIER tier, TIERLIST *next) {
    TIERLIST *node = SafeMalloc(sizeof *node);
    node->tier = tier;
    node->next = next;
    live_nodes++;
    return node;
}

void FreeMoveList(MOVELIST *list) {
    while (list != NULL) {
        MOVELIST *next = list->next;
        SafeFree(list);
        live_nodes--;
        list = next;
    }
}

static void free_tier_list(TIERLIST *list) {
    while (list != NULL) {
        TIERLIST *next = list->next;
        SafeFree(list);
        live_nodes--;
        list = next;
    }
}

/* ---- hash window ---- */
void gInitializeHashWindow(TIER tier, BOOLEAN load_db) {
    (void)load_db;
    if (gTierChildrenFunPtr == NULL || gNumberOfTierPositionsFunPtr == NULL)
        core_fail("hash window before InitializeGame installed the tier hooks");
    if (gHashWindowInitialized && gTierInHashWindow[1] == tier) return;
    free(gTierInHashWindow);
    free(gMaxPosOffset);
    TIERLIST *children = gTierChildrenFunPtr(tier);
    int count = 2;
    for (TIERLIST *c = children; c != NULL; c = c->next)
        if (c->tier != tier) count++;
    gTierInHashWindow = SafeMalloc(count * sizeof(TIER));
    gMaxPosOffset = SafeMalloc(count * sizeof(TIERPOSITION));
    gTierInHashWindow[0] = kBadTier;
    gMaxPosOffset[0] = 0;
    gTierInHashWindow[1] = tier;
    gMaxPosOffset[1] = gNumberOfTierPositionsFunPtr(tier);
    int i = 2;
    for (TIERLIST *c = children; c != NULL; c = c->next) {
        if (c->tier == tier) continue;
        gTierInHashWindow[i] = c->tier;
        gMaxPosOffset[i] = gMaxPosOffset[i - 1] + gNumberOfTierPositionsFunPtr(c->tier);
        i++;
    }
    free_tier_list(children);
    gNumTiersInHashWindow = count;
    gNumberOfPositions = gMaxPosOffset[count - 1];
    gHashWindowInitialized = TOPITOP_TRUE;
}

void gUnhashToTierPosition(POSITION position, TIERPOSITION *tier_position, TIER *tier) {
    if (!gHashWindowInitialized) core_fail("unhash without a hash window");
    if (position >= gNumberOfPositions) core_fail("unhash of a position outside the window");
    for (int i = 1; i < gNumTiersInHashWindow; i++) {
        if (position < gMaxPosOffset[i]) {
            *tier_position = position - gMaxPosOffset[i - 1];
            *tier = gTierInHashWindow[i];
            return;
        }
    }
}

POSITION gHashToWindowPosition(TIERPOSITION tier_position, TIER tier) {
    if (!gHashWindowInitialized) core_fail("hash without a hash window");
    for (int i = 1; i < gNumTiersInHashWindow; i++) {
        if (gTierInHashWindow[i] == tier) {
            if (tier_position >= gMaxPosOffset[i] - gMaxPosOffset[i - 1]) core_fail("tier position past the tier");
            return tier_position + gMaxPosOffset[i - 1];
        }
    }
    core_fail("hash into a tier outside the window");
    return 0;
}

/* ---- AutoGUI builders ---- */
void AutoGUIMakePositionString(int turn, char *entities, char *buffer) {
    sprintf(buffer, "%d_%s", turn, entities);
}

void AutoGUIMakeMoveButtonStringA(char token, unsigned int at, char sound, char *buffer) {
    sprintf(buffer, "A_%c_%u_%c", token, at, sound);
}

void AutoGUIMakeMoveButtonStringM(unsigned int from, unsigned int to, char sound, char *buffer) {
    sprintf(buffer, "M_%u_%u_%c", from, to, sound);
}

/* ---- text interface: input comes from a script ---- */
static const char *script = "";

static int next_token(char *out, size_t cap) {
    while (*script == ' ' || *script == '\n') script++;
    if (*script == '\0') return 0;
    size_t n = 0;
    while (*script != '\0' && *script != ' ' && *script != '\n') {
        if (n + 1 < cap) out[n++] = *script;
        script++;
    }
    out[n] = '\0';
    return 1;
}

STRING GetPrediction(POSITION position, STRING player_name, BOOLEAN users_turn) {
    (void)position; (void)player_name; (void)users_turn;
    static char prediction[] = "(no prediction: harness)";
    return prediction;
}

char GetMyChar(void) {
    char token[16];
    return next_token(token, sizeof token) ? token[0] : 'b';
}

USERINPUT HandleDefaultTextInput(POSITION position, MOVE *move, STRING player_name) {
    (void)player_name;
    char token[64];
    if (!next_token(token, sizeof token)) return Abort;
    if (strcmp(token, "u") == 0) return Undo;
    if (!ValidTextInput(token)) {
        printf("\nIllegal move syntax: %s\n", token);
        return Continue;
    }
    MOVE m = ConvertTextInputToMove(token);
    MOVELIST *moves = GenerateMoves(position);
    int legal = 0;
    for (MOVELIST *p = moves; p != NULL; p = p->next)
        if (p->move == m) legal = 1;
    FreeMoveList(moves);
    if (!legal) {
        printf("\nIllegal move: %s\n", token);
        return Continue;
    }
    *move = m;
    return Move;
}

/* ---- drivers for the Rust tests ---- */

/* Appends formatted text to a bounded buffer. */
static void add(char **at, size_t *left, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*at, *left, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= *left) core_fail("description buffer too small");
    *at += n;
    *left -= (size_t)n;
}

static int value_letter(VALUE v) {
    switch (v) {
        case undecided: return 'U';
        case win: return 'W';
        case lose: return 'L';
        case tie: return 'T';
        default: return '?';
    }
}

void harness_initialize(int option, int interact) {
    gIsInteract = interact;
    gLoadTierdbArray = TOPITOP_TRUE;
    setOption(option);
    InitializeGame();
    gHashWindowInitialized = TOPITOP_FALSE;
}

/* Everything the module says about one window position, in one line:
 * position string|legal|value|canonical|autogui|moves as code:string:autogui>child ... */
static void describe_position(POSITION p, char *out, size_t cap) {
    char buf[TOPITOP_POSITION_BUFFER], mbuf[TOPITOP_MOVE_BUFFER], abuf[TOPITOP_MOVE_BUFFER];
    char *at = out;
    size_t left = cap;
    PositionToString(p, buf);
    add(&at, &left, "%s|%d|%c|", buf, isLegal(p), value_letter(Primitive(p)));
    POSITION c = GetCanonicalPosition(p);
    PositionToString(c, buf);
    add(&at, &left, "%s|", buf);
    PositionToAutoGUIString(p, buf);
    add(&at, &left, "%s|", buf);
    /* The core plays moves only from positions that are not primitive; a
     * primitive's children may lie outside the window. */
    int playable = Primitive(p) == undecided;
    MOVELIST *moves = GenerateMoves(p);
    for (MOVELIST *m = moves; m != NULL; m = m->next) {
        MoveToString(m->move, mbuf);
        MoveToAutoGUIString(p, m->move, abuf);
        add(&at, &left, "%d:%s:%s>", m->move, mbuf, abuf);
        if (playable) {
            POSITION child = DoMove(p, m->move);
            if (child == TOPITOP_NULL_POSITION) core_fail("DoMove refused a generated move");
            PositionToString(child, buf);
            add(&at, &left, "%s ", buf);
        } else {
            add(&at, &left, "- ");
        }
    }
    FreeMoveList(moves);
}

/* As the tier solver: window on `tier`, then the position at `tier_position`. */
int harness_describe_tier_position(TIER tier, TIERPOSITION tier_position, char *out, size_t cap) {
    gInitializeHashWindow(tier, TOPITOP_FALSE);
    describe_position(gHashToWindowPosition(tier_position, tier), out, cap);
    return core_failures;
}

/* As --interact: parse a string (which moves the window), then describe it.
 * Returns 0 and writes "" when the module rejects the string. */
int harness_describe_string(const char *position, char *out, size_t cap) {
    char copy[TOPITOP_POSITION_BUFFER];
    snprintf(copy, sizeof copy, "%s", position);
    POSITION p = StringToPosition(copy);
    if (p == TOPITOP_NULL_POSITION) {
        out[0] = '\0';
        return 0;
    }
    describe_position(p, out, cap);
    return 1;
}

/* The tier hooks as the core sees them: size, name and children. */
void harness_describe_tier(TIER tier, char *out, size_t cap) {
    char *at = out;
    size_t left = cap;
    STRING name = gTierToStringFunPtr(tier);
    add(&at, &left, "%llu|%s|", gNumberOfTierPositionsFunPtr(tier), name);
    SafeFree(name);
    TIERLIST *children = gTierChildrenFunPtr(tier);
    for (TIERLIST *c = children; c != NULL; c = c->next) add(&at, &left, "%llu ", c->tier);
    free_tier_list(children);
}

/* Calls that must be refused without touching the window: returns a bit
 * mask of the answers that were wrong. */
int harness_bad_inputs(void) {
    int wrong = 0;
    char buf[TOPITOP_POSITION_BUFFER] = "x";
    gHashWindowInitialized = TOPITOP_FALSE;
    if (DoMove(0, 0) != kBadPosition) wrong |= 1;
    if (GenerateMoves(0) != NULL) wrong |= 2;
    if (Primitive(0) != undecided) wrong |= 4;
    gInitializeHashWindow(0, TOPITOP_FALSE);
    POSITION past = gNumberOfPositions;
    if (DoMove(past, 0) != kBadPosition || DoMove(~(POSITION)0, 0) != kBadPosition) wrong |= 8;
    if (GenerateMoves(past) != NULL || isLegal(past) || Primitive(past) != undecided) wrong |= 16;
    if (GetCanonicalPosition(past) != kBadPosition) wrong |= 32;
    PositionToString(past, buf);
    if (buf[0] != '\0') wrong |= 64;
    if (DoMove(0, 1 | 2 << 4) != kBadPosition) wrong |= 128;   /* 3-1: not adjacent */
    if (DoMove(0, 4420) != kBadPosition) wrong |= 256;         /* R5 on Blue's turn */
    if (DoMove(0, -7) != kBadPosition || DoMove(0, 1023) != kBadPosition) wrong |= 512;
    if (StringToPosition(NULL) != TOPITOP_NULL_POSITION) wrong |= 1024;
    char bad[] = "1_BBB------";
    if (StringToPosition(bad) != TOPITOP_NULL_POSITION) wrong |= 2048;
    MoveToString(77777, buf);
    if (buf[0] != '\0') wrong |= 4096;
    if (gTierChildrenFunPtr(0x3) != NULL || gNumberOfTierPositionsFunPtr(0x3) != 0) wrong |= 8192;
    if (ValidTextInput(NULL) || ConvertTextInputToMove(NULL) != -1) wrong |= 16384;
    /* Red has won; Blue's X could still stack onto the large pile, but that
     * child's tier is outside the window: refused instead of exiting. */
    char won[] = "1_BQQX--LC-";
    POSITION w = StringToPosition(won);
    if (w == TOPITOP_NULL_POSITION || DoMove(w, 6 | 3 << 4) != kBadPosition) wrong |= 32768;
    return wrong;
}

/* A mutable copy of `text`, as the ABI's string parameters are `char *`;
 * unlike harness_describe_string, it keeps inputs of any length. */
static char *copy_text(const char *text) {
    size_t n = strlen(text) + 1;
    char *copy = SafeMalloc(n);
    memcpy(copy, text, n);
    return copy;
}

/* As --interact reads a position: StringToPosition on `text`, then
 * PositionToString of the window position it returns into `out`
 * (TOPITOP_POSITION_BUFFER bytes). Returns 0 and writes "" when the module
 * rejects the string. */
int harness_position_string(const char *text, char *out) {
    char *copy = copy_text(text);
    POSITION p = StringToPosition(copy);
    SafeFree(copy);
    if (p == TOPITOP_NULL_POSITION) {
        out[0] = '\0';
        return 0;
    }
    PositionToString(p, out);
    return 1;
}

/* As the text interface reads a move: ValidTextInput, then
 * ConvertTextInputToMove on `text`. Returns the move code (-1 for text
 * that is not a move) and ValidTextInput's answer in `*valid`. */
MOVE harness_text_input(const char *text, BOOLEAN *valid) {
    char *copy = copy_text(text);
    *valid = ValidTextInput(copy);
    MOVE m = ConvertTextInputToMove(copy);
    SafeFree(copy);
    return m;
}

/* MoveToString of `move` into `out` (TOPITOP_MOVE_BUFFER bytes). */
void harness_move_string(MOVE move, char *out) { MoveToString(move, out); }

/* Text play from the start: input tokens from `moves`, output to `path`.
 * Returns the final position string in `final_position`. */
int harness_play(const char *moves, const char *path, char *final_position) {
    fflush(stdout);
    int saved = dup(1);
    if (freopen(path, "w", stdout) == NULL) return -1;
    script = moves;
    gInitializeHashWindow(gInitialTier, TOPITOP_FALSE);
    POSITION p = gHashToWindowPosition(gInitialTierPosition, gInitialTier);
    char blue[] = "Alice", red[] = "Bob";
    int plies = 0;
    while (Primitive(p) == undecided) {
        PrintPosition(p, plies % 2 ? red : blue, TOPITOP_TRUE);
        MOVE m = -1;
        USERINPUT in = GetAndPrintPlayersMove(p, &m, plies % 2 ? red : blue);
        if (in != Move) break;
        PrintComputersMove(m, plies % 2 ? red : blue);
        /* As the core does: the child may sit in another tier's window. */
        POSITION child = DoMove(p, m);
        TIERPOSITION tp; TIER t;
        gUnhashToTierPosition(child, &tp, &t);
        gInitializeHashWindow(t, TOPITOP_FALSE);
        p = gHashToWindowPosition(tp, t);
        plies++;
    }
    PrintPosition(p, plies % 2 ? red : blue, TOPITOP_FALSE);
    PositionToString(p, final_position);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    script = "";
    return plies;
}

/* The option menu, keys from `keys`, output discarded. */
int harness_menu(const char *keys) {
    fflush(stdout);
    int saved = dup(1);
    if (freopen("/dev/null", "w", stdout) == NULL) return -1;
    script = keys;
    GameSpecificMenu();
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    script = "";
    return getOption();
}

/* Module globals, as the core reads them. */
void harness_globals(char *out, size_t cap) {
    snprintf(out, cap, "%s|%s|%d|%d|%d|%d|%llu|%llu|%d|%d|%llu|%llu|%d", kGameName, kDBName, kPartizan, kLoopy,
             kTieIsPossible, kGameSpecificMenu, gInitialPosition, kBadPosition, kSupportsTierGamesman,
             kExclusivelyTierGamesman, gInitialTier, gInitialTierPosition, NumberOfOptions());
}

int harness_interact_flags(void) { return gLoadTierdbArray; }

long harness_live_nodes(void) { return live_nodes; }
