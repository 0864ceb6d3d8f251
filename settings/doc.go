// Package settings is the owner's browser settings: <data>/browser/
// settings.json (File), which fills in what the environment leaves unset;
// the settings in force (Settings), which the controller reads and changes
// with no session open (actors/controller.Settings, with Use my apps'
// permissions and allowed apps); the install's mode (Modes), one of the
// modes the daemon built, switched by the setting "mode"; and air-gap
// turned on or off (AirGap), which wipes the browser's saved logins when
// it is turned on. What it acts on beyond its own file it is handed as
// functions: the ledger's record of air-gap, the egress rules, the
// browser profiles.
//
// Concurrency: Settings and Modes are safe for concurrent use, each under
// its own mutex; a change holds the settings' mutex through its side
// effects and its save, so changes take turns.
package settings
