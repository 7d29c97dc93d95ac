/**
 * What the app's modules register into the engine (issue 28: the engine knows no module; modules add to it). Loaded
 * beside every page the engine renders (src/engine/pageRegistry.tsx), and by the page render tests.
 */
import './viewerLinks';
import './scannerLive';
import './slideJobsLive';
import './ocrAction';
