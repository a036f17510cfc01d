/** The function the manifest's LaunchEvent (OnMessageSend) names; commands.html associates it. */
export const onSendFunctionName = 'onMessageSendHandler';
