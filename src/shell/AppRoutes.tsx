import { Suspense, useMemo } from 'react';
import { lazyChunk } from './lazyChunk';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { firstLeaf, menuLabel, menuRoutes } from '../core/menuRules';
import { AliasPage } from '../engine/pageRegistry';
import PendingPage from '../pages/PendingPage';
import { useSession } from '../store/session';
import { ErrorBoundary } from './ErrorBoundary';
import { RouteGuard } from './RouteGuard';
import { Shell } from './Shell';
import { Splash } from './Splash';
import { ViewerPage } from './viewerChunk';

const LoginPage = lazyChunk(() => import('../pages/LoginPage'));
const NotFoundPage = lazyChunk(() => import('../pages/NotFoundPage'));
const ErrorPage = lazyChunk(() => import('../pages/ErrorPage'));
const UpdateLogPage = lazyChunk(() => import('../pages/UpdateLogPage'));
const PdfPage = lazyChunk(() => import('../pdf/PdfPage'));
const QrApprovePage = lazyChunk(() => import('../pages/qr-login/QrApprovePage'));
const ImageEditPage = lazyChunk(() => import('../viewer/ImageEditPage'));
const MessageCentre = lazyChunk(() => import('../messages/MessageCentre'));
const CaseDetailPage = lazyChunk(() => import('../pages/case-detail/CaseDetailPage'));
const SharePage = lazyChunk(() => import('../viewer/SharePage'));
// The outside expert's consultation page (issue 32), opened signed out from a consultation link.
const ConsultAnswerPage = lazyChunk(() => import('../pages/consult/ConsultAnswerPage'));
// Reading meetings (issue 12): the viewer and the realtime client come with this chunk.
const MeetingPage = lazyChunk(() => import('../meeting/MeetingPage'));
// The diagnosis editor (issue 15): a page of its own, opened from DiagnosisList.
const DiagnosisEditorPage = lazyChunk(() => import('../diagnosis/DiagnosisEditorPage'));
// The DICOM viewer (issue 30): dwv and its Konva come with this chunk only.
const DicomViewerPage = lazyChunk(() => import('../radiology/DicomViewerPage'));

/**
 * Pages opened straight from their address (a case link in a new tab, a reload, a shared link): their code asked for
 * at boot, beside the session's calls, so the route draws them at once instead of suspending behind React's fallback
 * throttle (lazyChunk). The viewer's own addresses are viewerEarly's.
 */
const DIRECT_PAGES: [RegExp, { preload(): void }][] = [
  [/^\/case\/\d+$/, CaseDetailPage], [/^\/diagnosis\/\d+$/, DiagnosisEditorPage], [/^\/image\/edit$/, ImageEditPage],
  [/^\/share\/view$/, SharePage], [/^\/consult\/answer$/, ConsultAnswerPage], [/^\/meeting\/view$/, MeetingPage], [/^\/dicom\/\d+\/\d+$/, DicomViewerPage],
];

export function preloadPageOf(pathname: string): void {
  DIRECT_PAGES.find(([address]) => address.test(pathname))?.[1].preload();
}

/** The slide viewer's routes of spec §2 (/inner/view is rewritten to /slide/view by the route guard). */
const VIEWER_ROUTES = ['/kfb/case/:id', '/kfb/path', '/kfb/section/:id/:section', '/kfb/:pid/:id', '/view', '/slide/view', '/outer/view', '/h5/view'];

/** Static routes of spec §2 whose pages belong to later work (viewers, editors); each says so by name. */
const STATIC_PENDING = ['/omnipt', '/jf_data'];

function ManageIndex() {
  const menus = useSession((s) => s.menus);
  const leaf = firstLeaf(menus);
  return leaf ? <Navigate to={leaf.uri} replace /> : <PendingPage alias="Dashboard" />;
}

export function AppRoutes() {
  const { i18n } = useTranslation();
  const menus = useSession((s) => s.menus);
  const dynamic = useMemo(() => menuRoutes(menus), [menus]);

  return (
    <BrowserRouter>
      <ErrorBoundary>
        <Suspense fallback={<Splash />}>
          <Routes>
            <Route element={<RouteGuard />}>
              <Route path="/" element={<Navigate to="/manage" replace />} />
              <Route path="/login" element={<LoginPage />} />
              <Route path="/404" element={<NotFoundPage />} />
              <Route path="/error" element={<ErrorPage />} />
              <Route path="/update-log" element={<UpdateLogPage />} />
              <Route path="/pdf" element={<PdfPage />} />
              <Route path="/h5/qr-login" element={<QrApprovePage />} />
              {STATIC_PENDING.map((p) => <Route key={p} path={p} element={<PendingPage alias={p} />} />)}
              {VIEWER_ROUTES.map((p) => <Route key={p} path={p} element={<ViewerPage />} />)}
              <Route path="/image/edit" element={<ImageEditPage />} />
              <Route path="/share/view" element={<SharePage />} />
              <Route path="/consult/answer" element={<ConsultAnswerPage />} />
              <Route path="/meeting/view" element={<MeetingPage />} />
              <Route path="/diagnosis/:id" element={<DiagnosisEditorPage />} />
              <Route path="/dicom/:pid/:id" element={<DicomViewerPage />} />
              {/* The signed-in frame: the menu's pages under /manage, and the case's home at its own address (spec §2 /case/{id}). */}
              <Route element={<Shell />}>
                <Route path="/manage">
                  <Route index element={<ManageIndex />} />
                  <Route path="messages" element={<MessageCentre />} />
                  {dynamic.map((r) => (
                    <Route key={r.path} path={`${r.path}/*`} element={<AliasPage alias={r.alias} name={menuLabel({ name: r.name, en_name: r.enName }, i18n.language)} />} />
                  ))}
                  <Route path="*" element={<Navigate to="/404" replace />} />
                </Route>
                <Route path="/case/:id" element={<CaseDetailPage />} />
              </Route>
              <Route path="*" element={<Navigate to="/404" replace />} />
            </Route>
          </Routes>
        </Suspense>
      </ErrorBoundary>
    </BrowserRouter>
  );
}
