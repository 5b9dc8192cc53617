import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { registerViewerChatRoutes } from './routes.js';
import { ViewerChatSockets } from './viewer-chat-socket.js';

/** The viewer chat's calls; app.ts attaches the returned namespace once Socket.IO exists. */
export function registerViewerChat(app: FastifyInstance, context: AppContext): ViewerChatSockets {
  const sockets = new ViewerChatSockets(context);
  registerViewerChatRoutes(app, context, sockets);
  return sockets;
}
