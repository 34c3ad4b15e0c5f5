/*
 * gamesman_topitop.h: the C ABI between GamesmanClassic's core and a Topitop
 * module, as the topitop Rust library implements it.
 *
 * Written for the topitop project from the facts of GamesmanClassic's
 * interface (types, names, calling conventions); it is not a copy of any
 * GamesmanClassic header. Three parts:
 *
 *   1. Types shared by core and module. Their layouts must equal the core's:
 *      on LP64, POSITION/TIER/TIERPOSITION are 8 bytes, MOVE/BOOLEAN/VALUE 4,
 *      and MOVELIST/TIERLIST are 16-byte nodes with `next` at offset 8.
 *   2. What the module defines: functions and global variables the core
 *      reads, calls or writes (gNumberOfPositions is written by the core's
 *      hash window).
 *   3. What the module uses from the core: list-node constructors,
 *      allocation, the tier hash window, AutoGUI string builders, text input,
 *      and the hook pointers InitializeGame installs.
 *
 * Conventions at the boundary: a POSITION is a hash-window position; an
 * invalid one yields kBadPosition (all bits set, = NULL_POSITION) from
 * DoMove/StringToPosition/GetCanonicalPosition, `undecided` from Primitive,
 * NULL from GenerateMoves and FALSE from isLegal. Position strings are
 * written into buffers of at least TOPITOP_POSITION_BUFFER bytes, move
 * strings into buffers of at least TOPITOP_MOVE_BUFFER bytes.
 */
#ifndef GAMESMAN_TOPITOP_H
#define GAMESMAN_TOPITOP_H

#include <stddef.h>
#include <stdio.h> /* printf, through which the module prints so that its output
                       shares the core's stdio buffer */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. Shared types ---------------------------------------------------- */

typedef unsigned long long POSITION;
typedef unsigned long long TIER;
typedef POSITION TIERPOSITION;
typedef int MOVE;
typedef int REMOTENESS;
typedef int BOOLEAN;
typedef char *STRING;
typedef const char *CONST_STRING;
typedef void *GENERIC_PTR;

#define TOPITOP_FALSE 0
#define TOPITOP_TRUE 1
/* Every bit set: an invalid position. */
#define TOPITOP_NULL_POSITION (~(POSITION)0)
/* The pass, the only move of a stuck position. */
#define TOPITOP_PASS_MOVE 1023
#define TOPITOP_POSITION_BUFFER 128
#define TOPITOP_MOVE_BUFFER 32

/* Game values in the core's numbering (not the natural win/lose/tie/draw). */
typedef enum value_enum {
    undecided = 0,
    win = 1,
    lose = 2,
    tie = 3,
    drawwin = 4,
    drawlose = 5,
    drawdraw = 6
} VALUE;

/* What a text-UI turn asks the core to do next. */
typedef enum user_input_enum {
    Undo = 0,
    Abort = 1,
    Continue = 2,
    Move = 3,
    Configure = 4,
    Switch = 5
} USERINPUT;

/* A singly linked list of moves; the core frees nodes with SafeFree. */
typedef struct movelist_item {
    MOVE move;
    struct movelist_item *next;
} MOVELIST;

/* A singly linked list of tiers; the core frees nodes with SafeFree. */
typedef struct tierlist_item {
    TIER tier;
    struct tierlist_item *next;
} TIERLIST;

/* ---- 2. Defined by the module -------------------------------------------- */

/* Game functions. */
void InitializeGame(void);
POSITION DoMove(POSITION position, MOVE move);
VALUE Primitive(POSITION position);
MOVELIST *GenerateMoves(POSITION position);
POSITION GetCanonicalPosition(POSITION position);
BOOLEAN isLegal(POSITION position);

/* Tier functions (installed as hooks by InitializeGame). */
TIERLIST *gTierChildren(TIER tier);
TIERPOSITION gNumberOfTierPositions(TIER tier);
STRING TierToString(TIER tier); /* malloc'd with SafeMalloc; the caller frees */

/* Strings. */
void PositionToString(POSITION position, char *buffer);
POSITION StringToPosition(char *position_string);
void PositionToAutoGUIString(POSITION position, char *buffer);
void MoveToString(MOVE move, char *buffer);
void MoveToAutoGUIString(POSITION position, MOVE move, char *buffer);

/* Text interface. */
void PrintPosition(POSITION position, STRING player_name, BOOLEAN users_turn);
void PrintComputersMove(MOVE move, STRING computers_name);
USERINPUT GetAndPrintPlayersMove(POSITION position, MOVE *move, STRING player_name);
BOOLEAN ValidTextInput(STRING input);
MOVE ConvertTextInputToMove(STRING input);

/* Options: 8 variants, getOption() = 4*misere + 2*tyingRule + immediateLoss. */
int NumberOfOptions(void);
int getOption(void);
void setOption(int option);
void GameSpecificMenu(void);
void DebugMenu(void);
void SetTclCGameSpecificOptions(int options[]);

/* Global variables. */
extern CONST_STRING kGameName;
extern CONST_STRING kDBName;
extern CONST_STRING kAuthorName;
extern CONST_STRING kHelpGraphicInterface;
extern CONST_STRING kHelpTextInterface;
extern CONST_STRING kHelpOnYourTurn;
extern CONST_STRING kHelpStandardObjective;
extern CONST_STRING kHelpReverseObjective;
extern CONST_STRING kHelpTieOccursWhen;
extern CONST_STRING kHelpExample;
extern BOOLEAN kPartizan;
extern BOOLEAN kLoopy;
extern BOOLEAN kTieIsPossible;
extern BOOLEAN kGameSpecificMenu;
extern BOOLEAN kDebugMenu;
extern BOOLEAN kDebugDetermineValue;
extern BOOLEAN kSupportsSymmetries;
extern POSITION gNumberOfPositions; /* written by the core's hash window */
extern POSITION gInitialPosition;
extern POSITION gMinimalPosition;
extern POSITION kBadPosition;
extern void *gGameSpecificTclInit;

/* ---- 3. Used from the core ----------------------------------------------- */

MOVELIST *CreateMovelistNode(MOVE move, MOVELIST *next);
TIERLIST *CreateTierlistNode(TIER tier, TIERLIST *next);
void FreeMoveList(MOVELIST *list);
GENERIC_PTR SafeMalloc(size_t size);
void SafeFree(GENERIC_PTR pointer);

/* The tier hash window: positions crossing the ABI are window positions. */
void gUnhashToTierPosition(POSITION position, TIERPOSITION *tier_position, TIER *tier);
POSITION gHashToWindowPosition(TIERPOSITION tier_position, TIER tier);
void gInitializeHashWindow(TIER tier, BOOLEAN load_db);
extern BOOLEAN gHashWindowInitialized;
extern TIER *gTierInHashWindow;     /* entry 0 is kBadTier */
extern TIERPOSITION *gMaxPosOffset; /* cumulative tier sizes */
extern int gNumTiersInHashWindow;

/* AutoGUI string builders: "%d_%s", "A_%c_%d_%c", "M_%d_%d_%c". */
void AutoGUIMakePositionString(int turn, char *entities, char *buffer);
void AutoGUIMakeMoveButtonStringA(char token, unsigned int at, char sound, char *buffer);
void AutoGUIMakeMoveButtonStringM(unsigned int from, unsigned int to, char sound, char *buffer);

/* Text interface services. */
STRING GetPrediction(POSITION position, STRING player_name, BOOLEAN users_turn);
USERINPUT HandleDefaultTextInput(POSITION position, MOVE *move, STRING player_name);
char GetMyChar(void);

/* Hooks and flags the module sets in InitializeGame. */
extern POSITION (*gCanonicalPosition)(POSITION);
extern void (*gPositionToStringFunPtr)(POSITION, char *);
extern TIERLIST *(*gTierChildrenFunPtr)(TIER);
extern TIERPOSITION (*gNumberOfTierPositionsFunPtr)(TIER);
extern STRING (*gTierToStringFunPtr)(TIER);
extern BOOLEAN (*gIsLegalFunPtr)(POSITION);
extern BOOLEAN kSupportsTierGamesman;
extern BOOLEAN kExclusivelyTierGamesman;
extern TIER gInitialTier;
extern TIERPOSITION gInitialTierPosition;
extern BOOLEAN gIsInteract;
extern BOOLEAN gLoadTierdbArray;

#ifdef __cplusplus
}
#endif

#endif /* GAMESMAN_TOPITOP_H */
