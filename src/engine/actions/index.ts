/** The action kinds: importing this registers them all (registry.ts). One line per kind. */
import './create';
import './edit';
import './detail';
import './delete';
import './patch';
import './request';
import './download';
import './pdf';
import './form';
import './open';
import './file';
import './reveal';
import './scan';
import './transition';

export { actionKinds, registerAction, resolveAction, type ActionContext, type ActionHandler, type ActionTools } from './registry';
