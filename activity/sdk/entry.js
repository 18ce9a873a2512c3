// The one piece of Discord's Embedded App SDK the board uses, bundled into
// ../web/sdk.js (see README, "The game board"): the page loads it only
// when it runs inside Discord.
import { DiscordSDK } from "@discord/embedded-app-sdk";

window.DiscordSDK = DiscordSDK;
