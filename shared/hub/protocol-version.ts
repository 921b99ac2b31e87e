/** Version of the hub wire protocol (tap<->hub and UI<->hub); bumped on any incompatible change. */
export const HUB_PROTOCOL_VERSION = 1;

/** WebSocket path taps connect to. */
export const TAP_PATH = "/ws/tap";
/** WebSocket path UIs connect to. */
export const UI_PATH = "/ws/ui";
