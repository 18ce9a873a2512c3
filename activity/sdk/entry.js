/*! Bundled from npm (see package-lock.json): @discord/embedded-app-sdk 2.5.0,
 * Copyright (c) 2024 Discord Inc.; zod 3.25.76, Copyright (c) 2025 Colin
 * McDonnell; uuid 11.1.1, Copyright (c) 2010-2020 Robert Kieffer and other
 * contributors; eventemitter3 5.0.4, Copyright (c) 2014 Arnout Kazemier;
 * decimal.js-light 2.5.1, Copyright (c) 2020 Michael Mclaughlin;
 * lodash.transform 4.6.0, Copyright jQuery Foundation and other contributors.
 * Each under the MIT License:
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in
 * all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 */
// The two pieces of Discord's Embedded App SDK the board uses, bundled into
// ../web/sdk.js (see README, "The game board"): DiscordSDK inside Discord,
// and its mock, DiscordSDKMock, which signs the local page in as a test user
// outside Discord.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

window.DiscordSDK = DiscordSDK;
window.DiscordSDKMock = DiscordSDKMock;
